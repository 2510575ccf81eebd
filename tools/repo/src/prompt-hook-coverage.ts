import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { coveredSources } from './hook-coverage';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURE = join(ROOT, 'harnesses/claude-code/fixtures/session/02-UserPromptSubmit.json');
const PROBE = join(import.meta.dirname, 'event-coverage-probe.cjs');

/** Runs the CLI in the temp world; the event's process writes its coverage to `coverage`. */
function runCli(
  bin: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
  preload: string[] = [],
): string {
  return execFileSync(process.execPath, [...preload, bin, ...args], {
    env,
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
  });
}

export interface PromptHookCoverage {
  /** Source files with a function that was called (absolute paths). */
  called: Set<string>;
  /** Source files with any code that ran, module set-up included. */
  setUp: Set<string>;
  /**
   * Source files with code that ran while the event was handled, after the
   * CLI bundle's module set-up returned: the path the prompt itself takes.
   */
  event: Set<string>;
  /** What the hook printed. */
  reply: string;
}

/**
 * Runs one Claude Code UserPromptSubmit event (the recorded fixture) the
 * way Claude Code runs it, as a `cairn hook` process of the built CLI in
 * `dir` with the hook server off, on a temp project holding one unit (after
 * one prompt of another session, so the index and compile cache exist), with
 * V8 coverage on (event-coverage-probe.cjs); returns the source files that
 * ran, through the bundles' source maps (hook-coverage.ts).
 */
export function promptHookCoverage(dir: string): PromptHookCoverage {
  const bin = join(dir, 'bin.cjs');
  const temp = mkdtempSync(join(tmpdir(), 'cairn-hook-path-'));
  try {
    const project = join(temp, 'project');
    const home = join(temp, 'home');
    const coverage = join(temp, 'coverage');
    for (const folder of [project, home, coverage]) mkdirSync(folder, { recursive: true });
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_CONFIG_HOME: join(home, '.config'),
      CAIRN_HOOK_SERVER: 'off',
    };
    runCli(bin, ['init', '--root', project], env);
    runCli(bin, ['add', 'The deploy key lives in the team vault.', '--root', project], env);
    const { payload } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
      payload: Record<string, unknown>;
    };
    const event = (sessionId: string) =>
      JSON.stringify({
        ...payload,
        session_id: sessionId,
        cwd: project,
        transcript_path: join(temp, 'none'),
      });
    // A first prompt, in another session, leaves what every later one finds: the search index
    // built and the CLI's compile cache written. The measured prompt is the everyday one.
    runCli(bin, ['hook', 'claude-code', 'UserPromptSubmit'], env, event('warm-up'));
    const reply = runCli(
      bin,
      ['hook', 'claude-code', 'UserPromptSubmit'],
      { ...env, CAIRN_EVENT_COVERAGE_DIR: coverage },
      event('measured'),
      ['--require', PROBE],
    );
    const [setUpPart, eventPart] = ['setup', 'event'].map((part) => join(coverage, part));
    for (const part of [setUpPart!, eventPart!]) mkdirSync(part, { recursive: true });
    const both = (calledOnly: boolean) =>
      new Set([
        ...coveredSources(setUpPart!, dir, calledOnly),
        ...coveredSources(eventPart!, dir, calledOnly),
      ]);
    return {
      called: both(true),
      setUp: both(false),
      event: coveredSources(eventPart!, dir, false),
      reply,
    };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

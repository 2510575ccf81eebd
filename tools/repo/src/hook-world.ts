import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURE = join(ROOT, 'harnesses/claude-code/fixtures/session/02-UserPromptSubmit.json');

/** The preload that splits a process's V8 coverage into parts (event-coverage-probe.cjs). */
export const PROBE = join(import.meta.dirname, 'event-coverage-probe.cjs');

export interface HookRun {
  stdout: string;
  stderr: string;
}

/** A temp project with one unit, a home of its own, and the built CLI of one checkout. */
export interface HookWorld {
  temp: string;
  /** Environment of every run: this world's home, the hook server off unless a run says. */
  env: NodeJS.ProcessEnv;
  /** Runs the CLI; `preload` goes before the launcher (`--require <probe>`). */
  run(args: string[], env?: NodeJS.ProcessEnv, input?: string, preload?: string[]): HookRun;
  /** A Claude Code UserPromptSubmit payload (the recorded fixture) for a session of the project. */
  prompt(sessionId: string): string;
}

/** Sets up a world for the CLI built in `dir`, runs `body` in it, and removes it. */
export function withHookWorld<T>(dir: string, body: (world: HookWorld) => T): T {
  const bin = join(dir, 'bin.cjs');
  const temp = mkdtempSync(join(tmpdir(), 'cairn-hook-path-'));
  try {
    const project = join(temp, 'project');
    const home = join(temp, 'home');
    for (const folder of [project, home]) mkdirSync(folder, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_CONFIG_HOME: join(home, '.config'),
      CAIRN_HOOK_SERVER: 'off',
    };
    const run: HookWorld['run'] = (args, extra = {}, input, preload = []) => {
      const result = spawnSync(process.execPath, [...preload, bin, ...args], {
        env: { ...env, ...extra },
        encoding: 'utf8',
        ...(input === undefined ? {} : { input }),
      });
      if (result.status !== 0) {
        throw new Error(`cairn ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
      }
      return { stdout: result.stdout, stderr: result.stderr };
    };
    run(['init', '--root', project]);
    run(['add', 'The deploy key lives in the team vault.', '--root', project]);
    const { payload } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
      payload: Record<string, unknown>;
    };
    const prompt = (sessionId: string) =>
      JSON.stringify({
        ...payload,
        session_id: sessionId,
        cwd: project,
        transcript_path: join(temp, 'none'),
      });
    return body({ temp, env, run, prompt });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

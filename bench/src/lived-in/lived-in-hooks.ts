import { join } from 'node:path';
import { type Fixture, payloadFor, promptFixture } from '../harnesses/hook-process-bench';
import {
  childEnv,
  failureDetail,
  interleaveWithNode,
  type NodeCommand,
  type Run,
  runNode,
} from '../scale/cli-bench';
import type { Distribution } from '../stats';

export type PromptSet = 'units' | 'transcript';
export type HookName = 'claude-code' | 'codex' | 'lifecycle';

export interface HookFigures {
  hook: HookName;
  /** Whether the hook server was on (the default) or every event ran in its own process. */
  server: boolean;
  /** Measured runs the hook server answered. */
  servedRuns: number;
  /** The command as the table names it. */
  command: string;
  agentId: string;
  promptSet: PromptSet;
  runs: number;
  node: Distribution;
  cairn: Distribution;
  ratio: number;
  p95Ratio: number;
  /** Runs that exited non-zero, printed no JSON or failed open. */
  failedRuns: number;
  /** Served runs that injected nothing from the expected source (units, or the transcript). */
  offSourceRuns: number;
  firstProblem: string | undefined;
}

export type HookResult =
  | HookFigures
  | { hook: HookName; promptSet: PromptSet; server: boolean; reason: string };

/**
 * Where an injection came from, read off the hook's stdout: a pack item
 * labelled with a unit's provenance, or a quoted raw (transcript) excerpt.
 */
export function injectedSource(stdout: string): { units: boolean; transcript: boolean } {
  return {
    units: stdout.includes('· unit UNIT:'),
    transcript: stdout.includes('[raw excerpt, quoted as evidence'),
  };
}

function failure(run: Run): string | undefined {
  if (run.status !== 0) return `exited with ${run.status}: ${failureDetail(run)}`;
  try {
    const printed = JSON.parse(run.stdout) as { ok?: boolean; failed?: unknown; error?: unknown };
    if (printed.ok === false) return `failed open: ${JSON.stringify(printed.error)}`;
    if (printed.failed) return `failed open: ${JSON.stringify(printed.failed)}`;
  } catch {
    return `printed something other than JSON: ${run.stdout.trim().slice(0, 120)}`;
  }
  return undefined;
}

function offSource(run: Run, expected: PromptSet): string | undefined {
  const source = injectedSource(run.stdout);
  if (expected === 'units' && !source.units) return 'no unit injected';
  if (expected === 'transcript' && !source.transcript) {
    return source.units ? 'units answered, not the transcript' : 'nothing injected';
  }
  return undefined;
}

interface HookCase {
  hook: HookName;
  command: string;
  agentId: string;
  build(run: number, prompt: string, sessionPrefix: string): NodeCommand;
}

/** The three whole-process hooks: Claude Code and Codex from their recorded payloads, and `cairn lifecycle`. */
export function hookCases(
  bin: string,
  rootDir: string,
  harnessesDir: string,
): (HookCase | { hook: HookName; reason: string })[] {
  const harness = (
    hook: 'claude-code' | 'codex',
    agentId: string,
  ): HookCase | { hook: HookName; reason: string } => {
    const fixture: Fixture | undefined = promptFixture(join(harnessesDir, hook));
    if (!fixture) return { hook, reason: 'no recorded userPromptSubmit fixture' };
    return {
      hook,
      agentId,
      command: `cairn hook ${hook} ${fixture.hookEvent}`,
      build: (run, prompt, prefix) => ({
        args: [bin, 'hook', hook, fixture.hookEvent, '--root', rootDir, '--json'],
        input: JSON.stringify(payloadFor(fixture, rootDir, run, prompt, prefix)),
      }),
    };
  };
  return [
    harness('claude-code', 'claude-code'),
    harness('codex', 'codex'),
    {
      hook: 'lifecycle',
      agentId: 'opencode',
      command: 'cairn lifecycle user-prompt-submit',
      build: (run, prompt, prefix) => ({
        args: [bin, 'lifecycle', 'user-prompt-submit', '--root', rootDir],
        input: JSON.stringify({ agentId: 'opencode', sessionKey: `${prefix}-${run}`, prompt }),
      }),
    },
  ];
}

/** What the client says when the hook server answered (CAIRN_TEST_HOOK_SERVER_TRACE). */
const SERVED = /answered by hook server \d+/;

/**
 * Runs the hook until the hook server answers it: the first run starts the
 * server and answers itself, as a user's first event does. Undefined once
 * served, else why not.
 */
function untilServed(command: (i: number) => NodeCommand, env: NodeJS.ProcessEnv, from: number) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const run = runNode(command(from + attempt), env);
    if (SERVED.test(run.stderr)) return undefined;
    const failed = failure(run);
    if (failed) return failed;
  }
  return 'the hook server did not answer after 50 runs';
}

/**
 * One hook on one prompt set, beside bare `node -e 0`, interleaved: a new
 * session per run, and every run checked for an injection from the
 * expected source so a fast no-op cannot pass for a figure. With `server`
 * (the default setup) every measured run must be answered by the hook
 * server; without it (`CAIRN_HOOK_SERVER=off`) each runs in its own process.
 */
export function benchHook(
  hookCase: HookCase,
  promptSet: PromptSet,
  prompts: string[],
  homeDir: string,
  runs: number,
  server: boolean,
): HookResult {
  const env = {
    ...childEnv(homeDir),
    CAIRN_HOOK_SERVER: server ? 'on' : 'off',
    CAIRN_TEST_HOOK_SERVER_TRACE: '1',
  };
  const prefix = `lived-${hookCase.hook}-${promptSet}-${server ? 'server' : 'alone'}`;
  const command = (i: number) => hookCase.build(i, prompts[i % prompts.length]!, prefix);
  // The probe may refresh the search index of the copied project: not a sample.
  const probeRun = runNode(command(runs + 2), env);
  const probe = failure(probeRun) ?? (server ? untilServed(command, env, runs + 3) : undefined);
  if (probe) return { hook: hookCase.hook, promptSet, server, reason: probe };
  let offSourceRuns = 0;
  let servedRuns = 0;
  let firstOffSource: string | undefined;
  const check = (run: Run) => {
    const failed = failure(run);
    if (failed) return failed;
    if (SERVED.test(run.stderr)) servedRuns += 1;
    else if (server) return 'answered in its own process, not by the hook server';
    const off = offSource(run, promptSet);
    if (off) {
      offSourceRuns += 1;
      firstOffSource ??= off;
    }
    return undefined;
  };
  // Only the measured runs go through `check` (the two warm-up rounds do not).
  const result = interleaveWithNode(command, env, runs, check);
  return {
    hook: hookCase.hook,
    server,
    servedRuns,
    command: hookCase.command,
    agentId: hookCase.agentId,
    promptSet,
    runs,
    node: result.node,
    cairn: result.cairn,
    ratio: result.cairn.p50 / result.node.p50,
    p95Ratio: result.cairn.p95 / result.node.p95,
    failedRuns: result.failedRuns,
    offSourceRuns,
    firstProblem: result.firstFailure ?? firstOffSource,
  };
}

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

export type HookResult = HookFigures | { hook: HookName; promptSet: PromptSet; reason: string };

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

/**
 * One hook on one prompt set, beside bare `node -e 0`, interleaved: a new
 * session per run, and every run checked for an injection from the
 * expected source so a fast no-op cannot pass for a figure.
 */
export function benchHook(
  hookCase: HookCase,
  promptSet: PromptSet,
  prompts: string[],
  homeDir: string,
  runs: number,
): HookResult {
  const env = childEnv(homeDir);
  const prefix = `lived-${hookCase.hook}-${promptSet}`;
  const command = (i: number) => hookCase.build(i, prompts[i % prompts.length]!, prefix);
  // The probe may refresh the search index of the copied project: not a sample.
  const probeRun = runNode(command(runs + 2), env);
  const probe = failure(probeRun);
  if (probe) return { hook: hookCase.hook, promptSet, reason: probe };
  let offSourceRuns = 0;
  let firstOffSource: string | undefined;
  const check = (run: Run) => {
    const failed = failure(run);
    if (failed) return failed;
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

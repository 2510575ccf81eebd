import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  childEnv,
  failureDetail,
  interleaveWithNode,
  type NodeCommand,
  type Run,
  runNode,
} from '../scale/cli-bench';
import type { Distribution } from '../stats';

export interface HookProcessFigures {
  harness: string;
  hookEvent: string;
  runs: number;
  node: Distribution;
  hook: Distribution;
  ratio: number;
  p95Ratio: number;
  failedRuns: number;
  firstFailure: string | undefined;
}

export interface Fixture {
  event: string;
  hookEvent: string;
  payload: Record<string, unknown>;
}

/** The recorded prompt-submit payload of a harness, from its e2e fixtures. */
export function promptFixture(harnessDir: string): Fixture | undefined {
  const dir = join(harnessDir, 'fixtures', 'session');
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .sort();
  } catch {
    return undefined;
  }
  return files
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Fixture)
    .find((fixture) => fixture.event === 'userPromptSubmit');
}

/** A new session per run (so nothing is skipped as already injected) and the bench's project. */
export function payloadFor(
  fixture: Fixture,
  rootDir: string,
  run: number,
  prompt: string,
  sessionPrefix = 'bench',
) {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        if (/^session_?id$/i.test(key) && typeof inner === 'string') {
          return [key, `${sessionPrefix}-${run}`];
        }
        if (key === 'cwd' && typeof inner === 'string') return [key, rootDir];
        if (key === 'prompt' && typeof inner === 'string') return [key, prompt];
        return [key, rewrite(inner)];
      }),
    );
  };
  return rewrite(fixture.payload);
}

function refusal(run: Run): string | undefined {
  if (run.status !== 0) return `exited with ${run.status}: ${failureDetail(run)}`;
  try {
    const printed = JSON.parse(run.stdout) as { ok?: boolean; calls?: string[]; error?: unknown };
    if (!printed.ok) return `failed open: ${JSON.stringify(printed.error)}`;
    if (!printed.calls?.includes('user-prompt-submit')) return 'did not reach user-prompt-submit';
  } catch {
    return `printed something other than JSON: ${run.stdout.trim().slice(0, 120)}`;
  }
  return undefined;
}

/**
 * `cairn hook <harness> <event> --json` as the harness runs it (a process
 * per event, the recorded payload on stdin), beside bare `node -e 0`.
 */
export function benchHookProcess(options: {
  bin: string;
  harness: string;
  fixture: Fixture;
  rootDir: string;
  homeDir: string;
  prompts: string[];
  runs: number;
}): HookProcessFigures | { harness: string; reason: string } {
  const { bin, harness, fixture, rootDir, prompts } = options;
  const env = childEnv(options.homeDir);
  const command = (i: number): NodeCommand => ({
    args: [bin, 'hook', harness, fixture.hookEvent, '--root', rootDir, '--json'],
    input: JSON.stringify(
      payloadFor(fixture, rootDir, i, prompts[i % prompts.length] ?? 'release'),
    ),
  });
  const probe = refusal(runNode(command(-1), env));
  if (probe) return { harness, reason: probe };
  const { node, cairn, failedRuns, firstFailure } = interleaveWithNode(
    command,
    env,
    options.runs,
    refusal,
  );
  return {
    harness,
    hookEvent: fixture.hookEvent,
    runs: options.runs,
    node,
    hook: cairn,
    ratio: cairn.p50 / node.p50,
    p95Ratio: cairn.p95 / node.p95,
    failedRuns,
    firstFailure,
  };
}

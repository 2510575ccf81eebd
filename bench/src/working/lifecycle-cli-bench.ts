import { existsSync } from 'node:fs';
import {
  childEnv,
  failureDetail,
  interleaveWithNode,
  type NodeCommand,
  type Run,
  resolveCairnBin,
  runNode,
} from '../scale/cli-bench';
import type { Distribution } from '../stats';

export type LifecycleCliFigures =
  | {
      available: true;
      runs: number;
      node: Distribution;
      cairn: Distribution;
      /** Medians, then 95th percentiles, of the command over bare `node -e 0`, same runs. */
      ratio: number;
      p95Ratio: number;
      /** Runs that exited non-zero, printed no JSON, or answered `failed` (failed open). */
      failedRuns: number;
      firstFailure: string | undefined;
    }
  | { available: false; reason: string };

const EVENT = 'user-prompt-submit';

/** Why a run does not count as a served event, or undefined when it was served. */
function refusal(run: Run): string | undefined {
  if (run.status !== 0) return `exited with ${run.status}: ${failureDetail(run)}`;
  let printed: unknown;
  try {
    printed = JSON.parse(run.stdout);
  } catch {
    return `printed something other than JSON: ${run.stdout.trim().slice(0, 120)}`;
  }
  const failed = (printed as { failed?: { code?: unknown; message?: unknown } } | null)?.failed;
  if (failed) return `failed open: ${String(failed.code)} ${String(failed.message)}`;
  return undefined;
}

/**
 * `cairn lifecycle user-prompt-submit --root <root>` as a harness hook runs
 * it: a whole process reading the event's JSON on stdin, beside a bare
 * `node -e 0`, interleaved. Every run is a new session key; the prompt is a
 * generator query, so recall searches the whole workspace.
 */
export function benchLifecycleCli(
  rootDir: string,
  homeDir: string,
  prompts: string[],
  runs: number,
): LifecycleCliFigures {
  let bin: string;
  try {
    bin = resolveCairnBin();
  } catch (error) {
    return { available: false, reason: `cannot resolve @cairn/cli: ${(error as Error).message}` };
  }
  if (!existsSync(bin))
    return { available: false, reason: `${bin} is missing: run \`pnpm build\` first` };
  const env = childEnv(homeDir);
  const command = (key: string, i: number): NodeCommand => ({
    args: [bin, 'lifecycle', EVENT, '--root', rootDir],
    input: JSON.stringify({
      agentId: 'bench',
      sessionKey: key,
      prompt: prompts[i % prompts.length] ?? 'release',
    }),
  });
  // The first run also builds the search index; it is a probe, not a sample.
  const probe = refusal(runNode(command('s-probe', 0), env));
  if (probe) return { available: false, reason: `\`cairn lifecycle ${EVENT}\` ${probe}` };
  const { node, cairn, failedRuns, firstFailure } = interleaveWithNode(
    (i) => command(`s-${i}`, i),
    env,
    runs,
    refusal,
  );
  return {
    available: true,
    runs,
    node,
    cairn,
    ratio: cairn.p50 / node.p50,
    p95Ratio: cairn.p95 / node.p95,
    failedRuns,
    firstFailure,
  };
}

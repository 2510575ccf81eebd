import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { childEnv, failureDetail, resolveCairnBin } from '../scale/cli-bench';
import { type Distribution, distribution } from '../stats';
import type { Node24Tools } from './node24-tools';
import { parseQmdHits, qmdAddCollection, qmdEnv, qmdSearchArgs } from './qmd-cli';

/** One command measured as a whole process; `hits` counts what it printed. */
export interface ProcessFigures extends Distribution {
  failedRuns: number;
  firstFailure: string | undefined;
  /** Runs that found nothing (qmd's BM25 wants every term). */
  emptyRuns: number;
}

export type CliCompareFigures =
  | {
      available: true;
      node: string;
      runs: number;
      qmdIndexMs: number;
      bare: ProcessFigures;
      /** `cairn --version`: starting Cairn (launcher, bundle, module init) without a search. */
      cairnStart: ProcessFigures;
      cairn: ProcessFigures;
      qmd: ProcessFigures;
      /** qmd median over Cairn median: how many times faster Cairn is. */
      speedup: number;
    }
  | { available: false; reason: string };

interface Timed {
  ms: number;
  failure: string | undefined;
  empty: boolean;
}

type Command = (i: number) => { args: string[]; countHits?: (stdout: string) => number };

function runOnce(node: string, env: NodeJS.ProcessEnv, command: ReturnType<Command>): Timed {
  const start = performance.now();
  const child = spawnSync(node, command.args, { env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - start;
  const run = { ms, status: child.status, stdout: child.stdout ?? '', stderr: child.stderr ?? '' };
  if (run.status !== 0) return { ms, failure: failureDetail(run), empty: true };
  try {
    return { ms, failure: undefined, empty: (command.countHits?.(run.stdout) ?? 1) === 0 };
  } catch (error) {
    return { ms, failure: `unreadable output: ${(error as Error).message}`, empty: true };
  }
}

function summarizeRuns(runs: Timed[]): ProcessFigures {
  return {
    ...distribution(runs.map((run) => run.ms)),
    failedRuns: runs.filter((run) => run.failure).length,
    firstFailure: runs.find((run) => run.failure)?.failure,
    emptyRuns: runs.filter((run) => run.empty).length,
  };
}

/**
 * Runs the commands round-robin, rotating which goes first each round so
 * all see the same machine state; two rounds of warm-up are not counted.
 */
function interleave(
  node: string,
  commands: { env: NodeJS.ProcessEnv; command: Command }[],
  runs: number,
): Timed[][] {
  const results = commands.map((): Timed[] => []);
  for (let round = -2; round < runs; round += 1) {
    for (let k = 0; k < commands.length; k += 1) {
      const which = (k + Math.max(round, 0)) % commands.length;
      const { env, command } = commands[which]!;
      const timed = runOnce(node, env, command(Math.max(round, 0)));
      if (round >= 0) results[which]!.push(timed);
    }
  }
  return results;
}

const countCairnHits = (stdout: string) => {
  const printed = JSON.parse(stdout) as unknown;
  const list = Array.isArray(printed) ? printed : (printed as { results?: unknown[] }).results;
  return Array.isArray(list) ? list.length : 0;
};

/**
 * `cairn search` and `qmd search` as whole processes on the same Node 24
 * binary and the same workspace folder, beside a bare `node -e 0`. Cairn
 * opens its index through node:sqlite, its driver on Node 24; qmd indexes
 * the folder first (`qmd collection add`, timed).
 */
export function compareCli(
  tools: Node24Tools,
  rootDir: string,
  workspaceDir: string,
  homeDir: string,
  queries: readonly string[],
  runs: number,
): CliCompareFigures {
  const cairnBin = resolveCairnBin();
  // What a user gets: on Node 24 Cairn's default SQLite driver is node:sqlite.
  const cairnEnv = childEnv(homeDir);
  const qmdHome = qmdEnv(homeDir);
  const started = performance.now();
  try {
    qmdAddCollection(tools, qmdHome, workspaceDir, 'bench');
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  }
  const qmdIndexMs = performance.now() - started;
  const query = (i: number) => queries[i % queries.length]!;
  const cairn: Command = (i) => ({
    args: [cairnBin, 'search', query(i), '--root', rootDir, '--json'],
    countHits: countCairnHits,
  });
  const qmd: Command = (i) => ({
    args: qmdSearchArgs(tools, query(i), 'bench'),
    countHits: (stdout) => parseQmdHits(stdout).length,
  });
  // The probe builds Cairn's index, so no timed run pays for it.
  const probe = runOnce(tools.node, cairnEnv, cairn(0));
  if (probe.failure) return { available: false, reason: `\`cairn search\`: ${probe.failure}` };
  const [bare, startRuns, cairnRuns, qmdRuns] = interleave(
    tools.node,
    [
      { env: cairnEnv, command: () => ({ args: ['-e', '0'] }) },
      { env: cairnEnv, command: () => ({ args: [cairnBin, '--version'] }) },
      { env: cairnEnv, command: cairn },
      { env: qmdHome, command: qmd },
    ],
    runs,
  );
  const figures = {
    bare: summarizeRuns(bare!),
    cairnStart: summarizeRuns(startRuns!),
    cairn: summarizeRuns(cairnRuns!),
    qmd: summarizeRuns(qmdRuns!),
  };
  return {
    available: true,
    node: tools.version,
    runs,
    qmdIndexMs,
    ...figures,
    speedup: figures.qmd.p50 / figures.cairn.p50,
  };
}

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Distribution, distribution } from '../stats';

export type CliFigures =
  | {
      available: true;
      runs: number;
      node: Distribution;
      cairn: Distribution;
      /** Median of `cairn search` over median of bare `node -e 0`, from the same interleaved runs. */
      ratio: number;
      failedRuns: number;
    }
  | { available: false; reason: string };

/** The `cairn` bin of the installed @cairn/cli, from its package.json. */
export function resolveCairnBin(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@cairn/cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.cairn;
  if (!bin) throw new Error('@cairn/cli declares no `cairn` bin');
  return join(dirname(manifestPath), bin);
}

export interface Run {
  ms: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** One node process: its arguments and, when given, what it reads on stdin. */
export interface NodeCommand {
  args: string[];
  input?: string;
}

export function runNode(command: NodeCommand, env: NodeJS.ProcessEnv): Run {
  const start = performance.now();
  const child = spawnSync(process.execPath, command.args, {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    // Without input, stdin stays as it was (a search must not wait on it).
    ...(command.input === undefined ? {} : { input: command.input }),
  });
  const ms = performance.now() - start;
  return { ms, status: child.status, stdout: child.stdout ?? '', stderr: child.stderr ?? '' };
}

/** A clean environment: no CAIRN_* variables, and a HOME without user config. */
export function childEnv(homeDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('CAIRN_') && key !== 'NODE_OPTIONS') env[key] = value;
  }
  return { ...env, HOME: homeDir, USERPROFILE: homeDir };
}

/** The error message of a failed run: from its JSON error object when it printed one. */
export function failureDetail(run: Run): string {
  let detail = run.stderr.trim() || run.stdout.trim();
  try {
    const printed = JSON.parse(run.stdout) as { error?: { message?: unknown } };
    if (typeof printed.error?.message === 'string') detail = printed.error.message;
  } catch {
    // not JSON: keep the raw text
  }
  return detail.replace(/\s+/g, ' ').slice(0, 200);
}

/** Why a run does not count, or undefined when it exited 0. */
export type RunCheck = (run: Run) => string | undefined;

const exitedZero: RunCheck = (run) =>
  run.status === 0 ? undefined : `exited with ${run.status}: ${failureDetail(run)}`;

export interface Interleaved {
  node: Distribution;
  cairn: Distribution;
  /** Runs the check refused (still timed and counted in `cairn`). */
  failedRuns: number;
  /** The first refusal, to tell what went wrong. */
  firstFailure: string | undefined;
}

/**
 * Whole-process latency of a Cairn command beside a bare `node -e 0`,
 * interleaved (alternating which goes first) so both see the same machine
 * state. Two rounds of each are a warm-up and not counted.
 */
export function interleaveWithNode(
  command: (i: number) => NodeCommand,
  env: NodeJS.ProcessEnv,
  runs: number,
  check: RunCheck = exitedZero,
): Interleaved {
  const bare: NodeCommand = { args: ['-e', '0'] };
  for (let i = 0; i < 2; i += 1) {
    runNode(bare, env);
    runNode(command(runs + i), env);
  }
  const node: number[] = [];
  const cairn: number[] = [];
  let failedRuns = 0;
  let firstFailure: string | undefined;
  for (let i = 0; i < runs; i += 1) {
    const measureCairn = () => {
      const run = runNode(command(i), env);
      const failure = check(run);
      if (failure) {
        failedRuns += 1;
        firstFailure ??= failure;
      }
      cairn.push(run.ms);
    };
    if (i % 2 === 1) measureCairn();
    node.push(runNode(bare, env).ms);
    if (i % 2 === 0) measureCairn();
  }
  return { node: distribution(node), cairn: distribution(cairn), failedRuns, firstFailure };
}

function probe(
  bin: string,
  rootDir: string,
  query: string,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (!existsSync(bin)) return `${bin} is missing: run \`pnpm build\` first`;
  const run = runNode({ args: [bin, 'search', query, '--root', rootDir, '--json'] }, env);
  if (run.status !== 0) {
    return `\`cairn search\` exited with ${run.status}: ${failureDetail(run)}`;
  }
  try {
    JSON.parse(run.stdout);
  } catch {
    return '`cairn search --json` printed something other than JSON';
  }
  return undefined;
}

/** Whole-process latency of `cairn search <q> --root <root> --json` beside a bare `node -e 0`. */
export function benchCli(
  rootDir: string,
  homeDir: string,
  queries: string[],
  runs: number,
): CliFigures {
  let bin: string;
  try {
    bin = resolveCairnBin();
  } catch (error) {
    return { available: false, reason: `cannot resolve @cairn/cli: ${(error as Error).message}` };
  }
  const env = childEnv(homeDir);
  const reason = probe(bin, rootDir, queries[0] ?? 'release', env);
  if (reason) return { available: false, reason };
  const { node, cairn, failedRuns } = interleaveWithNode(
    (i) => ({ args: [bin, 'search', queries[i % queries.length]!, '--root', rootDir, '--json'] }),
    env,
    runs,
  );
  return { available: true, runs, node, cairn, ratio: cairn.p50 / node.p50, failedRuns };
}

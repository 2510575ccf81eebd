import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MEASURED_SECTIONS } from '../report';
import { UsageError } from '../usage-error';

/** Sections `compare` can run: every measured bench section (not `all`, not `compare` itself). */
export const COMPARE_SECTIONS = MEASURED_SECTIONS;

/**
 * The default: the sections that measure what a hook event, a pack and a
 * search cost and find: about six minutes a side on two shared cores once
 * each checkout's lived-in project is cached (building one takes 8-9
 * minutes). Left out: scale and retrieval (index builds at 10,000 and
 * 100,000 chunks, the longest runs, and retrieval needs Node 24 for qmd)
 * and maintenance (a year of daily extraction runs).
 */
export const DEFAULT_COMPARE_SECTIONS = [
  'lived-in',
  'working',
  'harnesses',
  'packs',
  'injection',
  'coding-memory',
  'locomo',
  'signatures',
] as const;

const SETUP =
  'git worktree add ../before <ref> && cd ../before && pnpm install --frozen-lockfile && pnpm build';

export const COMPARE_USAGE = `Usage: pnpm bench compare --before <dir> [section ...] [--data <file.json>] [--json <out.json>] [--quick]

  Runs each section in the checkout <dir> ("before"), then straight after in this one
  ("after"), each as \`pnpm bench <section> --json\` in that checkout's bench/, so both runs of
  a section see the machine as nearly alike as it gets. Pairs their figures by section,
  table and row, prints them with each target and whether it was met before and after,
  and writes the section "Before and after" of this checkout's docs/BENCHMARKS.md.

  --before <dir>  another checkout of this repository, installed and built:
                    ${SETUP}
                  a full run there rewrites that checkout's docs/BENCHMARKS.md (a bench
                  older than compare keeps its tables only there); in this checkout only
                  the compare's section is written (its runs get CAIRN_BENCH_NO_DOC=1)
  section ...     any of: ${COMPARE_SECTIONS.join(', ')}
                  default: ${DEFAULT_COMPARE_SECTIONS.join(', ')}
                  (what a hook event, a pack and a search cost and find: about six
                  minutes a side on two cores once each checkout has built its lived-in
                  project, 8-9 minutes the first time; scale, retrieval and maintenance,
                  the longest runs, only when named)
  --data <file>   LoCoMo JSON for locomo, given to both checkouts
  --json <file>   also write the paired figures as JSON
  --quick         small sizes on both sides, a smoke test; does not write docs/BENCHMARKS.md
                  (a before bench older than compare then has no tables to give)`;

const usageError = (message: string) => new UsageError(message, COMPARE_USAGE);

export interface CompareOptions {
  /** The before checkout's root, absolute. */
  beforeDir: string;
  sections: string[];
  dataPath: string;
  jsonPath: string | undefined;
  quick: boolean;
}

function parseCompareLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv.filter((arg) => arg !== '--'),
      options: {
        before: { type: 'string' },
        data: { type: 'string' },
        json: { type: 'string' },
        quick: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

function packageName(path: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name as string;
  } catch {
    return undefined;
  }
}

/** A checkout of this repository, installed, with the bench and a built CLI; else a UsageError saying what to do. */
export function checkBeforeCheckout(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw usageError(
      `--before ${dir} is not a directory: give a checkout of this repository (${SETUP})`,
    );
  }
  if (packageName(join(dir, 'bench/package.json')) !== '@cairn/bench') {
    throw usageError(
      `--before ${dir} is not a checkout of this repository: it has no bench/package.json of @cairn/bench (${SETUP})`,
    );
  }
  if (!existsSync(join(dir, 'bench/node_modules'))) {
    throw usageError(`--before ${dir} is not installed: run \`pnpm install\` there first`);
  }
  if (!existsSync(join(dir, 'packages/cli/dist/bin.cjs'))) {
    throw usageError(
      `--before ${dir} has no built CLI (packages/cli/dist/bin.cjs): run \`pnpm build\` there first`,
    );
  }
}

/**
 * The compare's command line, checked before anything runs: undefined for
 * --help, else the options; a bad one throws a UsageError and nothing runs.
 */
export function parseCompareOptions(
  argv: string[],
  defaults: { cwd: string; dataPath: string },
): CompareOptions | undefined {
  const { values, positionals } = parseCompareLine(argv);
  if (values.help) return undefined;
  if (!values.before) {
    throw usageError(
      `compare needs --before <dir>: another checkout of this repository, built (${SETUP})`,
    );
  }
  const unknown = positionals.filter(
    (name) => !(COMPARE_SECTIONS as readonly string[]).includes(name),
  );
  if (unknown.length) {
    throw usageError(
      `unknown section ${unknown.map((name) => `"${name}"`).join(', ')}: expected any of ${COMPARE_SECTIONS.join(', ')}`,
    );
  }
  const sections = positionals.length ? [...new Set(positionals)] : [...DEFAULT_COMPARE_SECTIONS];
  const beforeDir = resolve(defaults.cwd, values.before);
  checkBeforeCheckout(beforeDir);
  const dataPath = values.data ? resolve(defaults.cwd, values.data) : defaults.dataPath;
  if (sections.includes('locomo') && !existsSync(dataPath)) {
    throw usageError(
      `locomo needs the LoCoMo JSON and ${dataPath} does not exist: pass --data <file.json>, or name the sections without locomo`,
    );
  }
  return {
    beforeDir,
    sections,
    dataPath,
    jsonPath: values.json ? resolve(defaults.cwd, values.json) : undefined,
    quick: values.quick ?? false,
  };
}

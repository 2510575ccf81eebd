import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Section } from '../report';
import { timed } from '../stats';
import { benchCli, type CliFigures } from './cli-bench';
import { generateWorkspace, type WorkspaceSpec } from './generate-workspace';
import { benchIndex, type IndexBenchOptions, type IndexFigures } from './index-bench';
import type { ScaleFigures, TargetCheck } from './scale-figures';
import { SCALE_TARGETS, scaleTables } from './scale-tables';
import { createTextGenerator } from './text-generator';

/** One seed for every generated workspace: the same text on every run. */
export const SCALE_SEED = 20_250_101;

interface ScaleConfig extends IndexBenchOptions {
  spec: WorkspaceSpec;
  cliRuns: number;
}

const FULL: ScaleConfig = {
  spec: { units: 10_000, days: 100, rawBytes: 5_000_000, threads: 5 },
  refreshRuns: 10,
  queries: 200,
  backendQueries: 100,
  cliRuns: 15,
};

const QUICK: ScaleConfig = {
  spec: { units: 1_000, days: 10, rawBytes: 500_000, threads: 2 },
  refreshRuns: 3,
  queries: 40,
  backendQueries: 20,
  cliRuns: 5,
};

/** The workspace of the scale bench (10,000 units; 1,000 for a quick run). */
export function scaleSpec(quick: boolean): WorkspaceSpec {
  return (quick ? QUICK : FULL).spec;
}

/** One target: PASS when the figure is at or under its limit (information only). */
export function checkTarget(name: string, value: number, limit: number): TargetCheck {
  return { name, value, limit, pass: value <= limit };
}

function checkTargets(index: IndexFigures, cli: CliFigures): TargetCheck[] {
  const check = checkTarget;
  return [
    check('index.search p95 ms', index.indexSearch.p95, SCALE_TARGETS.searchP95Ms),
    check('backend search p95 ms', index.backendSearch.p95, SCALE_TARGETS.searchP95Ms),
    check('refresh after one change, median ms', index.refreshOneFile.p50, SCALE_TARGETS.refreshMs),
    ...(cli.available
      ? [check('cairn search / node, medians', cli.ratio, SCALE_TARGETS.cliRatio)]
      : []),
  ];
}

const INTRO = [
  'A generated workspace (seeded, so every run writes the same text): managed units written with',
  '`serializeUnit` over daily files, plus RAW markdown notes in the daily files, MEMORY.md and',
  'thread files, drawn from a Zipf-distributed vocabulary of 3,000 words. Queries are 1-4 words,',
  'half from the frequent head of the vocabulary and half uniform over it (selective terms).',
].join(' ');

/** Index build, refresh and search over a large generated workspace, and `cairn search` end to end. */
export async function runScale(options: { quick: boolean }): Promise<Section> {
  const config = options.quick ? QUICK : FULL;
  const base = await mkdtemp(join(tmpdir(), 'cairn-bench-scale-'));
  try {
    const rootDir = join(base, 'project');
    const homeDir = join(base, 'home');
    await mkdir(homeDir, { recursive: true });
    const text = createTextGenerator(SCALE_SEED);
    log(
      `scale: generating ${config.spec.units} units and ${config.spec.rawBytes / 1e6} MB of notes`,
    );
    const generated = await timed(() => generateWorkspace(rootDir, config.spec, text));
    const workspace = generated.value;
    log('scale: index build, refresh and in-process search');
    const index = await benchIndex(workspace, text, config);
    log(`scale: ${config.cliRuns} interleaved runs of \`cairn search\` and \`node -e 0\``);
    const cliQueries = Array.from({ length: config.cliRuns }, text.query);
    const cli = benchCli(rootDir, homeDir, cliQueries, config.cliRuns);
    const figures: ScaleFigures = {
      quick: options.quick,
      workspace: {
        files: workspace.files,
        units: workspace.units,
        totalMb: workspace.totalBytes / 1e6,
        rawMb: workspace.rawBytes / 1e6,
        generationMs: generated.ms,
      },
      index,
      cli,
      targets: checkTargets(index, cli),
    };
    return { name: 'scale', title: 'Scale', intro: [INTRO], tables: scaleTables(figures), figures };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

export type { ScaleFigures, TargetCheck } from './scale-figures';

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeSearchIndexes } from '@cairn/backend-file';
import { memoryWorkspacePath } from '@cairn/core';
import type { Section } from '../report';
import { generateWorkspace } from '../scale/generate-workspace';
import { SCALE_SEED } from '../scale/run-scale';
import { createTextGenerator } from '../scale/text-generator';
import { timed } from '../stats';
import {
  type BackendScaleFigures,
  benchBackend,
  SCALE_BACKENDS,
  type ScaleBackendSpec,
} from './backend-scale';
import { compareCli } from './cli-compare';
import { findNode24Tools } from './node24-tools';
import type { RetrievalFigures, SizeFigures } from './retrieval-figures';
import { retrievalTables } from './retrieval-tables';

/** Units per daily file of the generated corpora (about one chunk each). */
const UNITS_PER_DAY = 100;

interface SizeConfig {
  units: number;
  queries: number;
  warmup: number;
}

interface RetrievalConfig {
  sizes: SizeConfig[];
  /** Whole-process runs of each command, on the first size's corpus. */
  cliRuns: number;
}

/** 100k chunks dominate the run: fewer queries there, never a smaller corpus. */
const FULL: RetrievalConfig = {
  sizes: [
    { units: 10_000, queries: 100, warmup: 10 },
    { units: 100_000, queries: 40, warmup: 5 },
  ],
  cliRuns: 25,
};

const QUICK: RetrievalConfig = {
  sizes: [
    { units: 300, queries: 10, warmup: 2 },
    { units: 1_000, queries: 10, warmup: 2 },
  ],
  cliRuns: 3,
};

function log(message: string): void {
  process.stderr.write(`retrieval: ${message}\n`);
}

/** Why a backend is left out at this size, with what its largest measured run projects. */
function skipReason(spec: ScaleBackendSpec, units: number, earlier: SizeFigures[]): string {
  const measured = earlier
    .flatMap((size) => size.backends.map((backend) => ({ size, backend })))
    .filter(({ backend }) => backend.id === spec.id && backend.available)
    .at(-1);
  const limit = `kept to ${spec.maxUnits?.toLocaleString('en-US')} units so \`pnpm bench\` stays near ten minutes`;
  if (!measured?.backend.available) return limit;
  const { size, backend } = measured;
  const minutes = units / backend.chunksPerSecond / 60;
  return `${limit}: at the ${Math.round(backend.chunksPerSecond)} chunks/s measured at ${size.units.toLocaleString('en-US')} units the build alone would take about ${minutes.toFixed(1)} min, and each search scans every stored vector (${Math.round(backend.search.p50)} ms p50 at ${size.units.toLocaleString('en-US')} units)`;
}

/**
 * One corpus size: generates it, runs `beforeBackends` (the whole-process
 * comparison, before this process loads LanceDB or Mem0, whose native
 * threads would otherwise compete with the timed children), then builds and
 * searches with each backend.
 */
async function benchSize(
  rootDir: string,
  size: SizeConfig,
  earlier: SizeFigures[],
  beforeBackends: () => Promise<void> = async () => undefined,
): Promise<SizeFigures> {
  const text = createTextGenerator(SCALE_SEED);
  const spec = { units: size.units, days: size.units / UNITS_PER_DAY, rawBytes: 0, threads: 0 };
  log(`generating ${size.units.toLocaleString('en-US')} units`);
  const generated = await timed(() => generateWorkspace(rootDir, spec, text));
  await beforeBackends();
  const queries = Array.from({ length: size.queries + size.warmup }, text.query);
  const corpus = { chunks: undefined as number | undefined, bytes: generated.value.totalBytes };
  const backends: BackendScaleFigures[] = [];
  for (const backend of SCALE_BACKENDS) {
    if (backend.maxUnits !== undefined && size.units > backend.maxUnits) {
      const reason = skipReason(backend, size.units, earlier);
      backends.push({ id: backend.id, label: backend.label, available: false, reason });
      continue;
    }
    log(`${backend.label}: build and searches`);
    const figures = await benchBackend(backend, rootDir, corpus, queries, size.warmup);
    // The file index's count is the corpus size every throughput is read against.
    if (figures.available && corpus.chunks === undefined) corpus.chunks = figures.chunksWritten;
    backends.push(figures);
  }
  closeSearchIndexes();
  return {
    units: size.units,
    files: generated.value.files,
    chunks: corpus.chunks,
    mb: generated.value.totalBytes / 1e6,
    generationMs: generated.ms,
    queries: size.queries,
    backends,
  };
}

async function benchCliOn(rootDir: string, homeDir: string, runs: number) {
  const found = await findNode24Tools();
  if (!found.ok) return { available: false as const, reason: found.reason };
  const text = createTextGenerator(SCALE_SEED + 1);
  const queries = Array.from({ length: runs }, text.query);
  log(`${runs} interleaved runs of node -e 0, \`cairn search\` and \`qmd search\` on Node 24`);
  try {
    return compareCli(found.tools, rootDir, memoryWorkspacePath(rootDir), homeDir, queries, runs);
  } catch (error) {
    return { available: false as const, reason: (error as Error).message.slice(0, 240) };
  }
}

/**
 * Index build and in-process search for each backend at 10k and 100k
 * chunks, and `cairn search` against `qmd search` as whole processes.
 */
export async function runRetrieval(options: { quick: boolean }): Promise<Section> {
  const config = options.quick ? QUICK : FULL;
  const sizes: SizeFigures[] = [];
  let cli: RetrievalFigures['cli'] | undefined;
  for (const [i, size] of config.sizes.entries()) {
    const base = await mkdtemp(join(tmpdir(), 'cairn-bench-retrieval-'));
    try {
      const rootDir = join(base, 'project');
      const homeDir = join(base, 'home');
      await mkdir(homeDir, { recursive: true });
      const measureCli = async () => {
        cli = { ...(await benchCliOn(rootDir, homeDir, config.cliRuns)), units: size.units };
      };
      sizes.push(await benchSize(rootDir, size, sizes, i === 0 ? measureCli : undefined));
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }
  const figures: RetrievalFigures = { quick: options.quick, sizes, cli: cli! };
  return {
    name: 'retrieval',
    title: 'Retrieval backends at scale',
    intro: INTRO,
    tables: retrievalTables(figures),
    figures,
  };
}

const INTRO = [
  [
    "Generated corpora of managed units (the Scale section's seeded generator, 100 units per daily file,",
    'no RAW notes, so one unit is about one chunk), at 10,000 and 100,000 units. For each backend, in',
    'this process: a full index build from the markdown (`rebuild`), then searches of 1-4 word generator',
    'queries with limit 10, after a warm-up. Every vector arm uses the offline hash embedder (256',
    'dimensions); no neural model runs here.',
  ].join(' '),
  [
    'Then `cairn search` and `qmd search` run as whole processes on the same Node 24 binary over the',
    'same `.cairn/memory/` folder of the 10,000-unit corpus, interleaved with a bare `node -e 0` and',
    '`cairn --version` (Cairn starting without searching; rotating which goes first). Cairn uses its',
    'default file backend (keyword); qmd its BM25 search. This runs right after the corpus is generated,',
    'before the bench process loads any backend, so none of its threads competes with the timed processes.',
    'On Node 24 Cairn opens its index through `node:sqlite` (its default SQLite driver there).',
  ].join(' '),
];

export type { RetrievalFigures, SizeFigures } from './retrieval-figures';

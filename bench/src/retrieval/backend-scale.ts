import { createFileBackend, openSearchIndex } from '@cairn/backend-file';
import { createHashEmbedder, type MemoryBackend, type MemorySearchResult } from '@cairn/core';
import { type Distribution, distribution, median, timed } from '../stats';

/** One backend as the scale bench drives it: a full build, then searches, then close. */
export interface ScaleBackend {
  rebuild(): Promise<unknown>;
  search(query: string): Promise<MemorySearchResult[]>;
  close(): Promise<void>;
  /** Fallbacks it went through: a figure measured on a fallback says so. */
  warnings(): string[];
}

export interface ScaleBackendSpec {
  id: string;
  label: string;
  open(rootDir: string): Promise<ScaleBackend>;
  /**
   * Largest corpus measured: a backend whose build is too slow for the
   * bench's ten minutes gets its larger rows marked not measured, with the
   * time its smaller build projects.
   */
  maxUnits?: number;
  /** Fewer timed searches for a slow backend. */
  maxQueries?: number;
}

/** A backend with its own `rebuild(rootDir)` (LanceDB, Mem0), built from its package. */
function packagedBackend(backend: MemoryBackend, rootDir: string, id: string): ScaleBackend {
  if (!backend.rebuild) throw new Error(`the ${id} backend has no rebuild(rootDir)`);
  return {
    rebuild: () => backend.rebuild!(rootDir),
    search: (query) => backend.search!(rootDir, { query, limit: 10 }),
    close: async () => {
      await backend.close?.();
    },
    warnings: () => [...(backend.warnings ?? [])],
  };
}

/** `create<Id>Backend` from an optional package, or an error naming what is missing. */
async function importFactory(packageName: string, factory: string) {
  const loaded = (await import(packageName)) as Record<string, unknown>;
  const create = loaded[factory];
  if (typeof create !== 'function')
    throw new Error(`${packageName} does not export ${factory} yet`);
  return create as (options: Record<string, unknown>) => MemoryBackend;
}

function fileBackend(rootDir: string, hybrid: boolean): ScaleBackend {
  const options = hybrid ? { embedder: createHashEmbedder() } : {};
  const backend = createFileBackend(options);
  return {
    async rebuild() {
      const index = openSearchIndex(rootDir, options);
      try {
        return await index.rebuild();
      } finally {
        index.close();
      }
    },
    search: (query) => backend.search(rootDir, { query, limit: 10 }),
    close: async () => undefined,
    warnings: () => [...backend.warnings],
  };
}

export const SCALE_BACKENDS: readonly ScaleBackendSpec[] = [
  {
    id: 'file-keyword',
    label: 'file keyword (SQLite FTS5)',
    open: async (rootDir) => fileBackend(rootDir, false),
  },
  {
    id: 'file-hybrid',
    label: 'file hybrid (FTS5 + hash vectors)',
    open: async (rootDir) => fileBackend(rootDir, true),
  },
  {
    id: 'lancedb',
    label: 'lancedb (hybrid, hash embedder)',
    async open(rootDir) {
      const create = await importFactory('@cairn/backend-lancedb', 'createLancedbBackend');
      return packagedBackend(create({ embedder: createHashEmbedder() }), rootDir, 'lancedb');
    },
  },
  {
    id: 'mem0',
    label: 'mem0 OSS (hash embedder, infer off)',
    // mem0ai adds one memory at a time (about 20 ms each here): 100k would take half an hour.
    maxUnits: 10_000,
    maxQueries: 20,
    async open(rootDir) {
      const create = await importFactory('@cairn/backend-mem0', 'createMem0Backend');
      return packagedBackend(create({ embedder: createHashEmbedder() }), rootDir, 'mem0');
    },
  },
];

export type BackendScaleFigures =
  | {
      id: string;
      label: string;
      available: true;
      /** Chunks the build reported writing, when it reports them. */
      chunksWritten: number | undefined;
      buildMs: number;
      /** Corpus chunks (as the file index counts them) per second of build. */
      chunksPerSecond: number;
      mbPerSecond: number;
      search: Distribution;
      zeroHitQueries: number;
      medianHits: number;
      warnings: string[];
    }
  | { id: string; label: string; available: false; reason: string };

export interface CorpusSize {
  /** Chunks as the file index counts them; undefined until it has been built once. */
  chunks: number | undefined;
  bytes: number;
}

const chunksOf = (stats: unknown): number | undefined => {
  const value = (stats as { chunksWritten?: unknown } | undefined)?.chunksWritten;
  return typeof value === 'number' ? value : undefined;
};

/** Builds the backend's index from nothing, then times `queries` searches (after a warm-up). */
export async function benchBackend(
  spec: ScaleBackendSpec,
  rootDir: string,
  corpus: CorpusSize,
  queries: readonly string[],
  warmup: number,
): Promise<BackendScaleFigures> {
  let backend: ScaleBackend;
  try {
    backend = await spec.open(rootDir);
  } catch (error) {
    return { id: spec.id, label: spec.label, available: false, reason: reason(error) };
  }
  try {
    const build = await timed(() => backend.rebuild());
    // A slow backend gets a short warm-up too: its searches cost most of a second each.
    const warm = spec.maxQueries === undefined ? warmup : Math.min(warmup, 3);
    for (const query of queries.slice(0, warm)) await backend.search(query);
    const times: number[] = [];
    const hits: number[] = [];
    for (const query of queries.slice(warmup, warmup + (spec.maxQueries ?? queries.length))) {
      const { value, ms } = await timed(() => backend.search(query));
      times.push(ms);
      hits.push(value.length);
    }
    return {
      id: spec.id,
      label: spec.label,
      available: true,
      chunksWritten: chunksOf(build.value),
      buildMs: build.ms,
      chunksPerSecond: (corpus.chunks ?? chunksOf(build.value) ?? Number.NaN) / (build.ms / 1000),
      mbPerSecond: corpus.bytes / 1e6 / (build.ms / 1000),
      search: distribution(times),
      zeroHitQueries: hits.filter((n) => n === 0).length,
      medianHits: median(hits),
      warnings: backend.warnings(),
    };
  } catch (error) {
    return { id: spec.id, label: spec.label, available: false, reason: `failed: ${reason(error)}` };
  } finally {
    await backend.close();
  }
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 240);
}

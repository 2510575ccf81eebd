import type { MemorySearchResult } from '@cairn/core';
import { type OpenCairnOptions, openCairn, setModuleImporter } from '@cairn/engine';

/**
 * One way of searching a LoCoMo workspace through the engine
 * (`openCairn(...).search`): a backend type plus the environment that
 * configures it. The hash embedder is the only one that runs offline, so
 * every vector arm here uses it. qmd is measured apart (see qmdBackendSpec
 * and locomo-qmd.ts): its backend starts one `qmd search` process per query.
 */
export interface EngineAdapterSpec {
  /** Key in figures and JSON. */
  id: string;
  /** Row label. */
  label: string;
  /** `memoryBackendType` for openCairn. */
  backend: string;
  env: Record<string, string>;
  /** `memoryBackendOptions` for openCairn. */
  backendOptions?: Record<string, unknown>;
}

const HASH = { CAIRN_EMBEDDER_PROVIDER: 'hash' };

export const ENGINE_ADAPTERS: readonly EngineAdapterSpec[] = [
  { id: 'file-keyword', label: 'file keyword (default)', backend: 'file', env: {} },
  { id: 'file-hybrid', label: 'file hybrid (hash embedder)', backend: 'file', env: HASH },
  { id: 'lancedb', label: 'lancedb (hybrid, hash embedder)', backend: 'lancedb', env: HASH },
  { id: 'mem0', label: 'mem0 OSS (hash embedder, infer off)', backend: 'mem0', env: HASH },
];

/** The model the local-model arm loads unless CAIRN_BENCH_MODEL names another. */
export const DEFAULT_BENCH_MODEL = 'Xenova/all-MiniLM-L6-v2';

/**
 * The file backend, hybrid, with a local semantic model (the
 * `transformers` embedder) when CAIRN_BENCH_MODEL_DIR points at a folder
 * holding one (docs/SEARCH.md, "A local semantic model"); `reason` says
 * why it is not run otherwise. Nothing is downloaded.
 */
export function localModelSpec(
  env: NodeJS.ProcessEnv = process.env,
): { spec: EngineAdapterSpec } | { reason: string } {
  const modelDir = env.CAIRN_BENCH_MODEL_DIR?.trim();
  if (!modelDir) {
    return {
      reason:
        'not run: set CAIRN_BENCH_MODEL_DIR to a folder holding a local model (docs/SEARCH.md)',
    };
  }
  const model = env.CAIRN_BENCH_MODEL?.trim() || DEFAULT_BENCH_MODEL;
  const dimensions = env.CAIRN_BENCH_MODEL_DIMENSIONS?.trim() || '384';
  return {
    spec: {
      id: 'file-model',
      label: `file hybrid (local model ${model})`,
      backend: 'file',
      env: {
        CAIRN_EMBEDDER_PROVIDER: 'transformers',
        CAIRN_EMBEDDER_MODEL_DIR: modelDir,
        CAIRN_EMBEDDER_MODEL: model,
        CAIRN_EMBEDDER_DIMENSIONS: dimensions,
        // Neural similarities are higher for unrelated text than the hash embedder's.
        CAIRN_SEARCH_VECTOR_WEIGHT: '0.5',
        CAIRN_SEARCH_MIN_SIMILARITY: '0.3',
      },
    },
  };
}

/**
 * The qmd backend through the engine, running qmd on Node 24. One process
 * per question makes it minutes over the split, so the bench runs it on the
 * first conversation only.
 */
export function qmdBackendSpec(command: string[]): EngineAdapterSpec {
  return {
    id: 'qmd-backend',
    label: 'qmd backend (engine, `qmd search` per question)',
    backend: 'qmd',
    env: {},
    backendOptions: { command },
  };
}

/** A search hit with the engine's metadata (how a hybrid search was answered). */
export type EngineHit = MemorySearchResult & { metadata?: Record<string, unknown> };

export interface EngineAdapter {
  readonly spec: EngineAdapterSpec;
  search(query: string, limit: number): Promise<EngineHit[]>;
  /** Bring the backend's index up to date when it can do that apart from search. */
  refresh(): Promise<void>;
  /** Warnings the backend collected (fallbacks): a figure measured on a fallback says so. */
  warnings(): string[];
  close(): Promise<void>;
}

export type EngineAdapterOpening =
  | { ok: true; adapter: EngineAdapter }
  | { ok: false; reason: string };

/**
 * Opens the workspace at `rootDir` with the spec's backend, loading its
 * optional package (openCairn imports it on first use). A backend the engine cannot resolve
 * (package missing, or not exporting `create<Id>Backend` yet) is reported
 * with the engine's own warning instead of silently measuring `file`.
 */
export async function openEngineAdapter(
  rootDir: string,
  spec: EngineAdapterSpec,
  base: Omit<OpenCairnOptions, 'env' | 'overrides'> & { overrides?: OpenCairnOptions['overrides'] },
): Promise<EngineAdapterOpening> {
  const options: OpenCairnOptions = {
    ...base,
    env: spec.env,
    overrides: {
      ...base.overrides,
      memoryBackendType: spec.backend,
      ...(spec.backendOptions ? { memoryBackendOptions: spec.backendOptions } : {}),
    },
  };
  // The optional backends are the bench's dependencies, not the engine's: import them from here.
  setModuleImporter((specifier) => import(specifier));
  try {
    const cairn = await openCairn(rootDir, options);
    // The package loads on first use: status waits for it and says what was resolved.
    const { backend: resolved } = await cairn.status();
    if (resolved.resolved !== spec.backend) {
      const why = cairn.warnings.join('; ') || `the engine resolved "${resolved.resolved}"`;
      return { ok: false, reason: why.replace(/\s+/g, ' ').slice(0, 300) };
    }
    const { backend } = cairn;
    return {
      ok: true,
      adapter: {
        spec,
        search: (query, limit) => cairn.search({ query, limit }),
        async refresh() {
          await backend.refresh?.(rootDir);
        },
        warnings: () => [...(backend.warnings ?? [])],
        async close() {
          await backend.close?.();
        },
      },
    };
  } catch (error) {
    return { ok: false, reason: (error as Error).message.replace(/\s+/g, ' ').slice(0, 300) };
  }
}

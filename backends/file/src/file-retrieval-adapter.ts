import { resolve } from 'node:path';
import {
  CairnError,
  embedderKey,
  type MemoryPoolDefinition,
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  memoryQuerySchema,
  type NormalizedMemoryQuery,
  parseInput,
  type RetrievalAdapterCapabilities,
  type RetrievalAdapterFactoryOptions,
} from '@cairn/core';
import {
  byScore,
  eligible,
  isEmbedder,
  poolFolder,
  poolSummaries,
  registerPoolDefinitions,
  type WarningSink,
  warningSink,
  workspacePoolOf,
} from '@cairn/index-kit';
import type { HybridRanking } from './hybrid-rank';
import { type HybridSearch, hybridSearchOf } from './hybrid-search';
import { type PoolTarget, recallIndexedPool } from './pool-recall';
import { scanPool } from './pool-scan';
import { discardSearchIndex, hasWorkspace, sharedSearchIndex } from './search-index-cache';

export const fileRetrievalCapabilities = {
  semantic: false,
  keyword: true,
  graph: false,
} as const satisfies RetrievalAdapterCapabilities;

/** The shared index, or undefined without a workspace (then nothing is created under .cairn/). */
function indexFor(rootDir: string, warn: WarningSink) {
  return hasWorkspace(rootDir) ? sharedSearchIndex(rootDir, warn) : undefined;
}

/** Recall from every target through the index; the plain scan answers when the index fails. */
async function recallTargets(
  rootDir: string,
  targets: PoolTarget[],
  query: NormalizedMemoryQuery,
  hybrid: HybridSearch | undefined,
  warn: WarningSink,
): Promise<MemoryResult[]> {
  const index = indexFor(rootDir, warn);
  if (index) {
    try {
      const found = await Promise.all(
        targets.map((t) => recallIndexedPool(index, t, query, hybrid)),
      );
      return found.flat();
    } catch (error) {
      if (CairnError.isInstance(error)) throw error;
      discardSearchIndex(rootDir, error, warn);
    }
  }
  const found = (await Promise.all(targets.map((t) => scanPool(t.pool, t.base, query)))).flat();
  if (!hybrid) return found;
  const info = {
    mode: 'keyword',
    embedder: embedderKey(hybrid.embedder),
    embedderError: 'the search index is unavailable; answered by a plain keyword scan',
  };
  return found.map((result) => ({ ...result, metadata: { ...result.metadata, ...info } }));
}

/** `options.embedder` (an Embedder object) turns hybrid recall on; `options.search` tunes it. */
function hybridFromOptions(options: Record<string, unknown> = {}): HybridSearch | undefined {
  const { embedder, search, now } = options;
  if (embedder === undefined) return undefined;
  if (!isEmbedder(embedder)) {
    throw new CairnError(
      'INVALID_CONFIG',
      'The file adapter option "embedder" is not an Embedder',
      {
        hint: 'pass an object with id, model, dimensions and embed(texts), e.g. createHashEmbedder() from @cairn/core',
        details: { key: 'embedder' },
      },
    );
  }
  return hybridSearchOf({
    embedder,
    ...(search ? { ranking: search as Partial<HybridRanking> } : {}),
    ...(typeof now === 'function' ? { now: now as () => number } : {}),
  });
}

/**
 * The builtin retrieval adapter (seed 001's filesystem fallback): bm25
 * recall through the SQLite index in `.cairn/index/` (the workspace, and
 * registered pool folders in a second file), hybrid bm25 + vector recall
 * when `options.embedder` is given, or a plain keyword scan when the index
 * is unavailable or the workspace does not exist yet.
 */
export function createFileRetrievalAdapter(
  options: RetrievalAdapterFactoryOptions,
): MemoryRetrievalAdapter {
  const rootDir = resolve(options.rootDir);
  const hybrid = hybridFromOptions(options.options);
  const workspacePool = workspacePoolOf(rootDir);
  let pools: MemoryPoolDefinition[] = [workspacePool];
  const { warnings, warn } = warningSink();
  const targetOf = (pool: MemoryPoolDefinition): PoolTarget => ({
    pool,
    base: poolFolder(rootDir, pool),
    workspace: pool === workspacePool,
  });
  return {
    id: 'file',
    capabilities: hybrid
      ? { ...fileRetrievalCapabilities, semantic: true }
      : fileRetrievalCapabilities,
    async registerPools(definitions) {
      pools = registerPoolDefinitions(definitions, workspacePool).pools;
      try {
        const folders = pools.map(targetOf).filter((t) => !t.workspace);
        indexFor(rootDir, warn)?.pruneFolders(folders.map((t) => t.base));
      } catch (error) {
        // Stale pools only cost disk space; recall still works.
        warn(`could not prune the pool index: ${String(error)}`);
      }
    },
    async indexPaths() {
      // Pull-based: every recall refreshes the index from the files as they are now.
    },
    async recall(input: MemoryQuery) {
      const query = parseInput(memoryQuerySchema, input, 'memory query');
      const targets = pools.filter((pool) => eligible(pool, query)).map(targetOf);
      const results = await recallTargets(rootDir, targets, query, hybrid, warn);
      return results.sort(byScore).slice(0, query.limit);
    },
    async status() {
      const indexed = indexFor(rootDir, warn) !== undefined;
      return {
        ok: true,
        message: `${indexed ? (hybrid ? 'hybrid index' : 'full-text index') : 'keyword scan'} over ${pools.length} pool(s)`,
        details: {
          pools: poolSummaries(pools),
          ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
        },
      };
    },
  };
}

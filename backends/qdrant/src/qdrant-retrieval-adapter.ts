import { join, resolve } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import {
  formatError,
  type MemoryAdapterStatus,
  type MemoryPoolDefinition,
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  memoryQuerySchema,
  type NormalizedMemoryQuery,
  parseInput,
  type RetrievalAdapterCapabilities,
  type RetrievalAdapterFactoryOptions,
  type RetrievalAdapterRegistration,
} from '@cairn/core';
import {
  boundSnippet,
  coversFolder,
  eligible,
  folderPoolSource,
  isDirectory,
  matchesFilters,
  poolFolder,
  poolSummaries,
  queryTerms,
  registerPoolDefinitions,
  warningSink,
  workspacePoolOf,
  workspacePoolTarget,
} from '@cairn/index-kit';
import { canFallBack } from './qdrant-backend';
import { recallFilter } from './qdrant-filters';
import { type ChunkHit, QdrantIndex } from './qdrant-index';
import { defaultRepo, resolveQdrantOptions } from './qdrant-options';
import type { PoolTarget, QdrantRefreshStats } from './qdrant-refresh';

export const qdrantRetrievalCapabilities = {
  semantic: true,
  keyword: true,
  graph: false,
} as const satisfies RetrievalAdapterCapabilities;

const SNIPPET_CHARS = 320;
/** Candidates fetched when some filters can only be checked after the query. */
const POST_FILTER_CANDIDATES = 1000;

export interface QdrantRetrievalAdapter extends MemoryRetrievalAdapter {
  /** Collection, partition and point count; `ok: false` with the reason while recall falls back. */
  status(): Promise<MemoryAdapterStatus>;
  /** Deletes this project's points and indexes every registered pool again (`cairn reindex`). */
  rebuild(): Promise<QdrantRefreshStats>;
  /** Warnings so far (fallbacks), each once. */
  readonly warnings: readonly string[];
}

function toResult(hit: ChunkHit, target: PoolTarget, terms: string[]): MemoryResult {
  const p = hit.payload;
  return {
    id: p.chunk_id,
    uri: join(target.base, ...p.path.split('/')),
    score: hit.score,
    snippet: boundSnippet(p.text, terms, SNIPPET_CHARS),
    metadata: {
      poolId: target.id,
      tier: target.tier,
      path: p.path,
      startLine: p.start_line,
      endLine: p.end_line,
      kind: p.kind,
      pointId: hit.pointId,
      record_kind: p.record_kind,
      trust_class: p.trust_class,
      namespace_id: p.namespace_id,
      repo: p.repo,
      ...(p.memory_id ? { memoryId: p.memory_id } : {}),
      ...(p.category ? { category: p.category } : {}),
      ...(p.review_state ? { review: p.review_state } : {}),
      ...(p.created_at ? { createdAt: p.created_at } : {}),
    },
  };
}

async function recallFromIndex(
  index: QdrantIndex,
  targets: PoolTarget[],
  query: NormalizedMemoryQuery,
): Promise<MemoryResult[]> {
  const ids = targets.map((t) => t.id);
  const { filter, rest } = recallFilter(index.partition, ids, query.tiers, query);
  const postFilter = Object.keys(rest).length > 0;
  const hits = await index.search({
    text: query.query,
    filter,
    limit: postFilter ? POST_FILTER_CANDIDATES : query.limit,
  });
  const terms = queryTerms(query.query);
  const byId = new Map(targets.map((t) => [t.id, t]));
  return hits
    .filter((hit) => byId.has(hit.payload.pool))
    .map((hit) => toResult(hit, byId.get(hit.payload.pool)!, terms))
    .filter((result) => !postFilter || matchesFilters(result.metadata ?? {}, rest))
    .slice(0, query.limit);
}

function poolTarget(rootDir: string, pool: MemoryPoolDefinition, workspace: boolean): PoolTarget {
  if (workspace) return workspacePoolTarget(rootDir);
  const base = poolFolder(rootDir, pool);
  return { id: pool.id, tier: pool.tier, base, source: folderPoolSource(base) };
}

async function adapterStatus(
  index: QdrantIndex,
  pools: MemoryPoolDefinition[],
  warnings: readonly string[],
): Promise<MemoryAdapterStatus> {
  const details = { pools: poolSummaries(pools) };
  try {
    const described = await index.describe();
    return {
      ok: true,
      message: `Qdrant ${described.sparse ? 'hybrid' : 'dense'} recall over ${pools.length} pool(s) in ${described.collection}`,
      details: {
        ...details,
        ...described,
        ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
      },
    };
  } catch (error) {
    return {
      ok: false,
      message: `Qdrant unavailable, recall uses the file adapter: ${formatError(error)}`,
      details: { ...details, fallback: 'file', warnings: [...warnings, formatError(error)] },
    };
  }
}

/**
 * The Qdrant retrieval adapter: the workspace (hot) and registered pool
 * folders in the project's partition of one collection per namespace,
 * recalled by dense + sparse hybrid search with partition, pools, tiers and
 * metadata pushed down as payload filters. Pull-based: recall refreshes the
 * eligible pools first (incrementally). When the client is missing or the
 * server fails, recall answers from the builtin file adapter with a warning.
 */
export function createQdrantRetrievalAdapter(
  factory: RetrievalAdapterFactoryOptions,
): QdrantRetrievalAdapter {
  const rootDir = resolve(factory.rootDir);
  const options = resolveQdrantOptions(factory.options ?? {});
  const { warnings, warn } = warningSink(options.onWarning);
  const index = new QdrantIndex(options, options.repo ?? defaultRepo(rootDir), warn);
  const workspacePool = workspacePoolOf(rootDir);
  let pools: MemoryPoolDefinition[] = [workspacePool];
  let reconciled = false;
  const fallback = createFileRetrievalAdapter({ rootDir });
  const targetOf = (pool: MemoryPoolDefinition) =>
    poolTarget(rootDir, pool, pool === workspacePool);
  const fellBack = (error: unknown) => {
    if (!canFallBack(error)) throw error;
    warn(`Qdrant recall failed, using the file adapter instead: ${formatError(error)}`);
  };
  /** Drops points of pools no longer registered, once per registerPools. */
  const reconcile = async () => {
    if (reconciled) return;
    await index.keepOnlyPools(pools.map((p) => p.id));
    reconciled = true;
  };
  const refresh = async (targets: PoolTarget[], full = false) => {
    await reconcile();
    return index.refresh(
      targets.filter((t) => isDirectory(t.base)),
      full,
    );
  };

  return {
    id: 'qdrant',
    capabilities: options.sparse
      ? qdrantRetrievalCapabilities
      : { ...qdrantRetrievalCapabilities, keyword: false },
    warnings,
    async registerPools(definitions) {
      const registered = registerPoolDefinitions(definitions, workspacePool);
      await fallback.registerPools(registered.parsed);
      pools = registered.pools;
      reconciled = false;
      index.forget();
    },
    async indexPaths(paths) {
      const wanted = paths.map((path) => resolve(rootDir, path));
      const targets = pools.map(targetOf).filter((t) => coversFolder(wanted, t.base));
      await refresh(targets).catch(fellBack);
    },
    async recall(input: MemoryQuery) {
      const query = parseInput(memoryQuerySchema, input, 'memory query');
      const targets = pools.filter((pool) => eligible(pool, query)).map(targetOf);
      const present = targets.filter((t) => isDirectory(t.base));
      if (present.length === 0 || query.query.trim() === '') return [];
      try {
        await refresh(present);
        return await recallFromIndex(index, present, query);
      } catch (error) {
        fellBack(error);
        return fallback.recall(input);
      }
    },
    rebuild: () => refresh(pools.map(targetOf), true),
    status: () => adapterStatus(index, pools, warnings),
  };
}

/** The registration the engine adds to the adapter registry (`retrievalAdapter: "qdrant"`). */
export const qdrantRetrievalAdapter: RetrievalAdapterRegistration = {
  id: 'qdrant',
  capabilities: qdrantRetrievalCapabilities,
  create: createQdrantRetrievalAdapter,
};

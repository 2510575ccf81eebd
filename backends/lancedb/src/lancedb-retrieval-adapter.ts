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
  byScore,
  coversFolder,
  eligible,
  folderPoolSource,
  isDirectory,
  matchesFilters,
  poolFolder,
  poolSummaries,
  queryTerms,
  recallMetadata,
  registerPoolDefinitions,
  warningSink,
  workspacePoolOf,
  workspacePoolTarget,
} from '@cairn/index-kit';
import type { RankedHit } from './hybrid-search';
import { canFallBack } from './lancedb-backend';
import { LancedbIndex } from './lancedb-index';
import { databaseUri, resolveLancedbOptions } from './lancedb-options';
import { recallFilterClauses } from './query-filters';
import type { LancedbRefreshStats, PoolTarget } from './refresh-pool';
import { sqlAnd } from './sql';
import { placeOf } from './table-schema';

export const lancedbRetrievalCapabilities = {
  semantic: true,
  keyword: true,
  graph: false,
} as const satisfies RetrievalAdapterCapabilities;

const SNIPPET_CHARS = 320;
/** Candidates fetched when some filters can only be checked after the query. */
const POST_FILTER_CANDIDATES = 1000;

export interface LancedbRetrievalAdapter extends MemoryRetrievalAdapter {
  /** Row count, index state and URI; `ok: false` with the reason while recall falls back. */
  status(): Promise<MemoryAdapterStatus>;
  /** Drops the table and indexes every registered pool again (`cairn reindex`). */
  rebuild(): Promise<LancedbRefreshStats>;
  close(): Promise<void>;
}

function toResult(hit: RankedHit, target: PoolTarget, terms: string[]): MemoryResult {
  return {
    id: hit.chunk_id,
    uri: join(target.base, ...hit.path.split('/')),
    score: hit.score,
    snippet: boundSnippet(hit.text, terms, SNIPPET_CHARS),
    metadata: {
      ...recallMetadata(target, placeOf(hit)),
      ...(hit.similarity !== undefined ? { similarity: hit.similarity } : {}),
      ...(hit.keywordScore !== undefined ? { keywordScore: hit.keywordScore } : {}),
    },
  };
}

/** The index side of recall: filters pushed down, post-filters applied, best first. */
async function recallFromIndex(
  index: LancedbIndex,
  targets: PoolTarget[],
  query: NormalizedMemoryQuery,
): Promise<MemoryResult[]> {
  const terms = queryTerms(query.query);
  const filters = recallFilterClauses(
    targets.map((t) => t.id),
    query.tiers,
    query,
  );
  const postFilter = Object.keys(filters.rest).length > 0;
  const hits = await index.search({
    text: query.query,
    terms,
    where: sqlAnd(filters.clauses),
    limit: postFilter ? POST_FILTER_CANDIDATES : query.limit,
  });
  const byId = new Map(targets.map((t) => [t.id, t]));
  return hits
    .filter((hit) => byId.has(hit.pool))
    .map((hit) => toResult(hit, byId.get(hit.pool)!, terms))
    .filter((result) => !postFilter || matchesFilters(result.metadata ?? {}, filters.rest))
    .sort(byScore)
    .slice(0, query.limit);
}

/** A registered pool as the index sees it; the builtin workspace pool reads the workspace files. */
function poolTarget(rootDir: string, pool: MemoryPoolDefinition, workspace: boolean): PoolTarget {
  if (workspace) return workspacePoolTarget(rootDir);
  const base = poolFolder(rootDir, pool);
  return {
    id: pool.id,
    tier: pool.tier,
    base,
    source: folderPoolSource(base),
    ...(pool.agents ? { agents: pool.agents } : {}),
  };
}

async function adapterStatus(
  index: LancedbIndex,
  pools: MemoryPoolDefinition[],
  warnings: readonly string[],
): Promise<MemoryAdapterStatus> {
  const details = { pools: poolSummaries(pools) };
  try {
    const described = await index.describe();
    const extra = warnings.length > 0 ? { warnings: [...warnings] } : {};
    return {
      ok: true,
      message: `LanceDB ${index.options.searchMode} search over ${pools.length} pool(s)`,
      details: { ...details, ...described, ...extra },
    };
  } catch (error) {
    return {
      ok: false,
      message: `LanceDB unavailable, recall uses the file adapter: ${formatError(error)}`,
      details: { ...details, warnings: [...warnings, formatError(error)] },
    };
  }
}

/**
 * The LanceDB retrieval adapter (seed 001's primary target): the workspace
 * (hot) and registered pool folders in one table, recalled by hybrid
 * vector + full-text search with pools, tiers, agents and metadata pushed
 * down as filters. Pull-based: recall refreshes the eligible pools first.
 * When LanceDB is missing or fails, recall answers from the builtin file
 * adapter and `status()` says why.
 */
export function createLancedbRetrievalAdapter(
  factory: RetrievalAdapterFactoryOptions,
): LancedbRetrievalAdapter {
  const rootDir = resolve(factory.rootDir);
  const options = resolveLancedbOptions(factory.options ?? {});
  const { warnings, warn } = warningSink(options.onWarning);
  const workspacePool = workspacePoolOf(rootDir);
  let pools: MemoryPoolDefinition[] = [workspacePool];
  let reconciled = false;
  let dataDir: string | undefined;
  let index: LancedbIndex | undefined;
  const fallback = createFileRetrievalAdapter({ rootDir });
  const indexOf = () => {
    index ??= new LancedbIndex(databaseUri(rootDir, options.uri, dataDir), options, warn);
    return index;
  };
  const targetOf = (pool: MemoryPoolDefinition) =>
    poolTarget(rootDir, pool, pool === workspacePool);
  const fellBack = (error: unknown) => {
    if (!canFallBack(error)) throw error;
    warn(`LanceDB recall failed, using the file adapter instead: ${formatError(error)}`);
  };
  /** Refreshes targets whose folder exists, reconciling the table to the pools first. */
  const refresh = async (targets: PoolTarget[]) => {
    if (!reconciled) {
      await indexOf().reconcile(pools.map(targetOf));
      reconciled = true;
    }
    return indexOf().refresh(targets.filter((t) => isDirectory(t.base)));
  };

  async function recall(input: MemoryQuery): Promise<MemoryResult[]> {
    const query = parseInput(memoryQuerySchema, input, 'memory query');
    const targets = pools
      .filter((pool) => eligible(pool, query))
      .map(targetOf)
      .filter((t) => isDirectory(t.base));
    if (targets.length === 0 || query.query.trim() === '') return [];
    try {
      await refresh(targets);
      return await recallFromIndex(indexOf(), targets, query);
    } catch (error) {
      fellBack(error);
      return fallback.recall(input);
    }
  }

  return {
    id: 'lancedb',
    capabilities: lancedbRetrievalCapabilities,
    async init(opts) {
      if (!index) dataDir = opts.dataDir;
    },
    async registerPools(definitions) {
      const registered = registerPoolDefinitions(definitions, workspacePool);
      pools = registered.pools;
      reconciled = false;
      await fallback.registerPools(registered.parsed);
    },
    async indexPaths(paths) {
      const wanted = paths.map((path) => resolve(rootDir, path));
      const targets = pools.map(targetOf).filter((t) => coversFolder(wanted, t.base));
      await refresh(targets).catch(fellBack);
    },
    recall,
    async rebuild() {
      reconciled = true;
      return indexOf().refresh(
        pools.map(targetOf).filter((t) => isDirectory(t.base)),
        true,
      );
    },
    status: () => adapterStatus(indexOf(), pools, warnings),
    close: async () => index?.close(),
  };
}

/** The registration the engine adds to the adapter registry (`retrievalAdapter: "lancedb"`). */
export const lancedbRetrievalAdapter: RetrievalAdapterRegistration = {
  id: 'lancedb',
  capabilities: lancedbRetrievalCapabilities,
  create: createLancedbRetrievalAdapter,
};

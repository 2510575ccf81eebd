import {
  type CairnSettings,
  DEFAULT_RECALL_TIERS,
  formatError,
  isUnsafePathError,
  type MemoryAdapterStatus,
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  type MemorySearchFilters,
  type MemorySearchResult,
  type MemoryTier,
  memoryQuerySchema,
  memorySearchOptionsSchema,
  type NormalizedMemoryQuery,
  parseInput,
  rawMemoryId,
} from '@cairn/core';
import {
  byScore,
  eligible,
  passesIndexFilters,
  poolSummaries,
  queryTerms,
  recallFiltersOfSearch,
  recallIndexFilters,
  searchResultOfRecall,
  WORKSPACE_POOL_ID,
  wantedTiers,
} from '@cairn/index-kit';
import {
  type EnginePool,
  LINEAGE_FILTER_KEYS,
  type PoolContext,
  type RecallContext,
} from './engine-pool';

/** The project's recall: seed 001's adapter, plus what one caller's context brings. */
export interface CompositeRecall extends MemoryRetrievalAdapter {
  recall(query: MemoryQuery, context?: RecallContext): Promise<MemoryResult[]>;
  status(): Promise<MemoryAdapterStatus>;
  close(): Promise<void>;
}

export interface CompositeParts {
  /** The index adapter `retrievalAdapter` names: the workspace and registered pool folders. */
  index: () => Promise<MemoryRetrievalAdapter>;
  /** The engine pools now (the lineage's join when the full engine opens). */
  pools: () => readonly EnginePool[];
  /** The project's lineage, when it has one (opened on first use, never created). */
  lineage: PoolContext['lineage'];
  warn: (message: string) => void;
}

/** Metadata filters checked on an engine pool's results: its own keys are its business. */
function poolFilter(query: NormalizedMemoryQuery) {
  const rest = Object.entries(query.filters ?? {}).filter(
    ([key]) => !LINEAGE_FILTER_KEYS.includes(key) && key !== 'tier',
  );
  const filters = recallIndexFilters(Object.fromEntries(rest));
  return (result: MemoryResult) => passesIndexFilters(result.metadata ?? {}, filters);
}

/** Whether the index adapter has anything to answer: pool ids beyond the engine pools'. */
function wantsIndex(query: NormalizedMemoryQuery, pools: readonly EnginePool[]): boolean {
  if (!query.poolIds) return true;
  const engine = new Set(pools.map((pool) => pool.definition.id));
  return query.poolIds.some((id) => !engine.has(id));
}

/** The parts, and the capabilities the index adapter reported once it was built. */
interface CompositeState {
  parts: CompositeParts;
  capabilities: MemoryRetrievalAdapter['capabilities'];
}

/**
 * The recall every product path calls: the index adapter (workspace and
 * registered folders) and the engine pools (lineage summaries and
 * transcripts, the project's documents), each asked only when eligible
 * (tiers, pool ids, agents, roles), merged by score with ties by id. A
 * failing engine pool contributes nothing and warns: recall never fails
 * for a pool's sake (seed 001's fallback contract).
 */
export function createCompositeRecall(parts: CompositeParts): CompositeRecall {
  const state: CompositeState = {
    parts,
    capabilities: { semantic: false, keyword: true, graph: false },
  };
  return {
    id: 'cairn',
    get capabilities() {
      return state.capabilities;
    },
    async registerPools(pools) {
      await (await parts.index()).registerPools(pools);
    },
    async indexPaths(paths) {
      await (await parts.index()).indexPaths(paths);
    },
    recall: (input: MemoryQuery, context: RecallContext = {}) => recallAll(state, input, context),
    status: () => compositeStatus(parts),
    async close() {
      await Promise.all(parts.pools().map((pool) => pool.close?.()));
    },
  };
}

/** One engine pool's answer; a failing pool warns and answers nothing. */
async function askPool(
  parts: CompositeParts,
  pool: EnginePool,
  query: NormalizedMemoryQuery,
  context: PoolContext,
): Promise<MemoryResult[]> {
  try {
    return (await pool.recall(query, context)).filter(poolFilter(query));
  } catch (error) {
    // A link under .cairn/ fails the recall: never answered around.
    if (isUnsafePathError(error)) throw error;
    parts.warn(`recall from pool "${pool.definition.id}" failed: ${formatError(error)}`);
    return [];
  }
}

/** The index adapter's answer, when the query wants anything the engine pools do not hold. */
function askIndex(
  state: CompositeState,
  query: NormalizedMemoryQuery,
  all: readonly EnginePool[],
): Promise<MemoryResult[]> {
  // Pools the adapter holds itself are known once it is built: a query naming one goes to it.
  const mayCarry = all.some((p) => p.carriedByIndex && query.poolIds?.includes(p.definition.id));
  if (!wantsIndex(query, all) && !mayCarry) return Promise.resolve([]);
  return state.parts.index().then((index) => {
    const own = all.filter((pool) => !pool.carriedByIndex?.());
    if (!wantsIndex(query, own)) return [];
    state.capabilities = { ...state.capabilities, ...index.capabilities };
    return index.recall(query);
  });
}

async function recallAll(
  state: CompositeState,
  input: MemoryQuery,
  context: RecallContext,
): Promise<MemoryResult[]> {
  const { parts } = state;
  const query = parseInput(memoryQuerySchema, input, 'memory query');
  const tiers = wantedTiers(query);
  const all = parts.pools();
  const pools = all.filter((pool) => eligible(pool.definition, { ...query, tiers }));
  const poolContext: PoolContext = {
    lineage: context.lineage ?? parts.lineage,
    ...(context.transcripts ? { transcripts: context.transcripts } : {}),
  };
  const found = await Promise.all([
    askIndex(state, query, all),
    ...pools.map((p) => askPool(parts, p, query, poolContext)),
  ]);
  const answered = found.filter((results) => results.length > 0);
  // One answer keeps its own ranking; several are merged by score.
  if (answered.length <= 1) return (answered[0] ?? []).slice(0, query.limit);
  return answered.flat().sort(byScore).slice(0, query.limit);
}

async function compositeStatus(parts: CompositeParts): Promise<MemoryAdapterStatus> {
  const index = await parts.index();
  const status = (await index.status?.()) ?? { ok: true };
  const engine = await Promise.all(
    parts.pools().map(async (pool) => ({
      ...poolSummaries([pool.definition])[0],
      ...(await pool.describe?.()),
    })),
  );
  return {
    ...status,
    details: { ...status.details, adapter: index.id, enginePools: engine },
  };
}

/** The agent a search surface recalls as when its caller names none (`cairn search`). */
export const SEARCH_AGENT_ID = 'cairn';

export interface SearchRequest {
  query: string;
  limit?: number;
  snippetChars?: number;
  filters?: MemorySearchFilters;
  /** The calling agent (pools that list agents answer only to them). Default `cairn`. */
  agentId?: string;
  /** Default hot + warm; prompt recall asks for `hot` (units, heads) only. */
  tiers?: MemoryTier[];
}

/** A search result with the engine's extras (hybrid mode, point ids) when it has some. */
export type SearchHit = MemorySearchResult & { metadata?: Record<string, unknown> };

/**
 * A search of the workspace (seed 000's shape) as a recall query (seed
 * 001's): validated with the backend's schema first (a bad request is
 * INVALID_INPUT and reaches no index), limits from the settings.
 */
export function recallQueryOfSearch(
  settings: CairnSettings,
  request: SearchRequest,
): { query: MemoryQuery; snippetChars: number } {
  const { agentId, tiers, ...search } = request;
  const parsed = parseInput(
    memorySearchOptionsSchema,
    { limit: settings.limits.searchLimit, snippetChars: settings.limits.snippetChars, ...search },
    'search options',
  );
  return {
    query: {
      agentId: agentId ?? SEARCH_AGENT_ID,
      query: parsed.query,
      limit: parsed.limit,
      poolIds: [WORKSPACE_POOL_ID],
      tiers: tiers ?? [...DEFAULT_RECALL_TIERS],
      filters: recallFiltersOfSearch(parsed.filters),
    },
    snippetChars: parsed.snippetChars,
  };
}

/**
 * Recall results of the workspace in the shape the search surfaces return
 * (memoryId, kind, path, lines, snippet, score): the one place they are
 * mapped back. Every hit gets an id `get` accepts: RAW hits by line range.
 */
export function searchHitsOfRecall(
  results: readonly MemoryResult[],
  query: string,
  snippetChars: number,
): SearchHit[] {
  const terms = queryTerms(query);
  return results.map((result) => {
    const hit = searchResultOfRecall(result, terms, snippetChars);
    return hit.memoryId ? hit : { ...hit, memoryId: rawMemoryId(hit), kind: hit.kind ?? 'RAW' };
  });
}

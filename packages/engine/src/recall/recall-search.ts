import {
  type CairnSettings,
  DEFAULT_RECALL_TIERS,
  type MemoryQuery,
  type MemoryResult,
  type MemorySearchFilters,
  type MemorySearchResult,
  type MemoryTier,
  memorySearchOptionsSchema,
  parseInput,
  rawMemoryId,
} from '@cairn/core';
import {
  queryTerms,
  recallFiltersOfSearch,
  searchResultOfRecall,
  WORKSPACE_POOL_ID,
} from '@cairn/index-kit';

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

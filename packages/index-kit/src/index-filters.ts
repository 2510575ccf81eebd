import {
  formatError,
  type MemoryAdapterStatus,
  type MemoryIndex,
  type MemoryIndexCapabilities,
  type MemoryIndexFilterName,
  type MemoryIndexFilters,
  type MemoryIndexHit,
  type MemoryIndexStats,
  type MemoryPoolDefinition,
  type MemoryResult,
  type MemorySearchFilters,
  type MemoryTier,
  type NormalizedMemoryQuery,
  type PoolTarget,
} from '@cairn/core';
import { recallResultOfHit } from './index-hits';
import { byScore, poolSummaries, WORKSPACE_POOL_ID } from './pool-definitions';
import { queryTerms } from './query-terms';

/** The review states a search keeps: `only` these, or every state but deprecated ones. */
export interface ReviewStates {
  only?: string[];
  excludeDeprecated: boolean;
}

/**
 * An explicit `review` list keeps only units in those states (RAW text has
 * no review state); without one, RAW text and every unit but deprecated
 * ones are kept. `includeDeprecated` adds `deprecated` either way.
 */
export function reviewStates(filters: MemorySearchFilters = {}): ReviewStates {
  if (!filters.review?.length) return { excludeDeprecated: filters.includeDeprecated !== true };
  const only = new Set([...filters.review, ...(filters.includeDeprecated ? ['deprecated'] : [])]);
  return { only: [...only], excludeDeprecated: false };
}

/**
 * The backend search filters (seed 000) as index filters, with the file
 * index's rules: an explicit `review` list keeps only units in those
 * states; without one, RAW text and every unit but deprecated ones are
 * kept. Empty lists narrow nothing.
 */
export function searchIndexFilters(filters: MemorySearchFilters = {}): MemoryIndexFilters {
  const oneOf: Record<string, string[]> = {};
  if (filters.kind?.length) oneOf.kind = [...filters.kind];
  if (filters.category?.length) oneOf.category = [...filters.category];
  const reviews = reviewStates(filters);
  if (reviews.only) oneOf.review = reviews.only;
  return {
    oneOf,
    excludeDeprecated: reviews.excludeDeprecated,
    ...(filters.since ? { sinceMs: Date.parse(filters.since) } : {}),
    ...(filters.until ? { untilMs: Date.parse(filters.until) } : {}),
    ...(filters.path ? { pathPrefix: filters.path } : {}),
  };
}

/**
 * Recall filter keys that are not metadata to match but narrowings with
 * the backend search's meaning (seed 000 filters carried through recall):
 * ISO instants for a unit's creation, a path prefix, and `"true"` to keep
 * deprecated units.
 */
export const RECALL_FILTER_KEYS = {
  createdSince: 'createdSince',
  createdUntil: 'createdUntil',
  pathPrefix: 'pathPrefix',
  includeDeprecated: 'includeDeprecated',
} as const;

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Recall metadata filters (seed 001) as index filters: each key must match
 * one of its values, except the `RECALL_FILTER_KEYS`; deprecated units
 * only when `review` or `includeDeprecated` asks for them.
 */
export function recallIndexFilters(filters: NormalizedMemoryQuery['filters']): MemoryIndexFilters {
  const { createdSince, createdUntil, pathPrefix, includeDeprecated, ...metadata } = filters ?? {};
  const oneOf: Record<string, string[]> = {};
  for (const [key, wanted] of Object.entries(metadata)) {
    oneOf[key] = Array.isArray(wanted) ? [...wanted] : [wanted];
  }
  const since = single(createdSince);
  const until = single(createdUntil);
  const prefix = single(pathPrefix);
  return {
    oneOf,
    excludeDeprecated: !('review' in oneOf) && single(includeDeprecated) !== 'true',
    ...(since ? { sinceMs: Date.parse(since) } : {}),
    ...(until ? { untilMs: Date.parse(until) } : {}),
    ...(prefix ? { pathPrefix: prefix } : {}),
  };
}

/** Backend search filters (seed 000) as recall filters with the same meaning. */
export function recallFiltersOfSearch(
  filters: MemorySearchFilters = {},
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (filters.kind?.length) out.kind = [...filters.kind];
  if (filters.category?.length) out.category = [...filters.category];
  const reviews = reviewStates(filters);
  if (reviews.only) out.review = reviews.only;
  else if (!reviews.excludeDeprecated) out.includeDeprecated = 'true';
  if (filters.since) out.createdSince = filters.since;
  if (filters.until) out.createdUntil = filters.until;
  if (filters.path) out.pathPrefix = filters.path;
  return out;
}

export interface SplitIndexFilters {
  /** What the index applies itself. */
  pushed: MemoryIndexFilters;
  /** What the generic code checks on each hit afterwards. */
  rest: MemoryIndexFilters;
  /** Whether anything is left for afterwards (then more candidates are fetched). */
  postFiltered: boolean;
}

/** Splits filters by what the index declares it pushes down. */
export function splitIndexFilters(
  filters: MemoryIndexFilters,
  capabilities: Pick<MemoryIndexCapabilities, 'filters'>,
): SplitIndexFilters {
  const all = capabilities.filters.includes('*');
  const pushes = { has: (name: string) => all || capabilities.filters.includes(name) };
  const pushed: MemoryIndexFilters = { oneOf: {} };
  const rest: MemoryIndexFilters = { oneOf: {} };
  for (const [key, values] of Object.entries(filters.oneOf ?? {})) {
    (pushes.has(key) ? pushed : rest).oneOf![key] = values;
  }
  const side = (name: MemoryIndexFilterName) => (pushes.has(name) ? pushed : rest);
  if (filters.excludeDeprecated) side('deprecated').excludeDeprecated = true;
  if (filters.sinceMs !== undefined) side('created').sinceMs = filters.sinceMs;
  if (filters.untilMs !== undefined) side('created').untilMs = filters.untilMs;
  if (filters.pathPrefix) side('pathPrefix').pathPrefix = filters.pathPrefix;
  const postFiltered =
    Object.keys(rest.oneOf!).length > 0 ||
    rest.excludeDeprecated === true ||
    rest.sinceMs !== undefined ||
    rest.untilMs !== undefined ||
    rest.pathPrefix !== undefined;
  return { pushed, rest, postFiltered };
}

function createdWithin(createdAt: unknown, filters: MemoryIndexFilters): boolean {
  if (filters.sinceMs === undefined && filters.untilMs === undefined) return true;
  const at = typeof createdAt === 'string' ? Date.parse(createdAt) : Number.NaN;
  if (Number.isNaN(at)) return false;
  if (filters.sinceMs !== undefined && at < filters.sinceMs) return false;
  return filters.untilMs === undefined || at < filters.untilMs;
}

/**
 * Whether a hit's metadata (recall metadata: poolId, tier, path, kind,
 * category, review, memoryId, createdAt, and engine extras) passes the
 * filters, with the file index's rules.
 */
export function passesIndexFilters(
  metadata: Record<string, unknown>,
  filters: MemoryIndexFilters,
): boolean {
  for (const [key, values] of Object.entries(filters.oneOf ?? {})) {
    if (!values.includes(String(metadata[key] ?? ''))) return false;
  }
  if (filters.excludeDeprecated && metadata.review === 'deprecated') return false;
  if (filters.pathPrefix && !String(metadata.path ?? '').startsWith(filters.pathPrefix)) {
    return false;
  }
  return createdWithin(metadata.createdAt, filters);
}

/**
 * The column each index filter field is stored under in a table of chunks
 * (the file index's SQLite table, LanceDB's table): unit fields and seed
 * 004 §6.2's record keys, under the names recall metadata reports them.
 */
export const CHUNK_FILTER_COLUMNS = {
  path: 'path',
  kind: 'kind',
  category: 'category',
  review: 'review',
  memoryId: 'memory_id',
  record_kind: 'record_kind',
  trust_class: 'trust_class',
  'run_ref.kind': 'run_ref_kind',
  'run_ref.id': 'run_ref_id',
} as const;

/*
 * Recall from an index, which asks it with these filters: what it pushes
 * down, what is checked on each hit after, and the workspace's tiers (a
 * filter decided per chunk); and the adapter's status over the index.
 */

/**
 * The workspace holds two tiers (its files mix them, so the split is by
 * chunk, not by folder): units, the head (`MEMORY.md`) and thread heads
 * are hot; the rest (daily-note text that is not a unit, DREAMS.md, the
 * insights) is warm.
 */
export const WORKSPACE_TIERS: readonly MemoryTier[] = ['hot', 'warm'];

/** The tier of one workspace chunk. */
export function workspaceTierOf(hit: Pick<MemoryIndexHit, 'kind' | 'path'>): MemoryTier {
  if (hit.kind === 'UNIT' || hit.path === 'MEMORY.md' || hit.path.startsWith('threads/')) {
    return 'hot';
  }
  return 'warm';
}

/** The tiers the query asks for: `tiers`, narrowed by a `tier` metadata filter. */
export function wantedTiers(query: NormalizedMemoryQuery): MemoryTier[] {
  const filter = query.filters?.tier;
  if (filter === undefined) return query.tiers;
  const allowed = Array.isArray(filter) ? filter : [filter];
  return query.tiers.filter((tier) => allowed.includes(tier));
}

/** The query without its `tier` filter (tiers are decided per pool, or per chunk in the workspace). */
function withoutTierFilter(query: NormalizedMemoryQuery): NormalizedMemoryQuery['filters'] {
  if (!query.filters || !('tier' in query.filters)) return query.filters;
  const { tier: _tier, ...rest } = query.filters;
  return rest;
}

/**
 * The index side of recall: filters pushed down, the rest checked after,
 * workspace chunks kept only in the tiers asked for, best first.
 */
export async function recallFromIndex(
  capabilities: MemoryIndexCapabilities,
  index: MemoryIndex<MemoryIndexStats>,
  targets: PoolTarget[],
  query: NormalizedMemoryQuery,
): Promise<MemoryResult[]> {
  const terms = queryTerms(query.query);
  const tiers = wantedTiers(query);
  const split = splitIndexFilters(recallIndexFilters(withoutTierFilter(query)), capabilities);
  const workspace = targets.find((t) => t.source.key === WORKSPACE_POOL_ID);
  // A workspace asked for one of its two tiers drops the other's chunks after the search.
  const tierFiltered = !!workspace && WORKSPACE_TIERS.some((tier) => !tiers.includes(tier));
  const hits = await index.search({
    text: query.query,
    terms,
    pools: targets,
    // Indexes store the pool's tier on each chunk: the workspace's is `hot`.
    tiers: [...new Set([...tiers, ...(workspace ? [workspace.tier] : [])])],
    agentId: query.agentId,
    filters: split.pushed,
    limit: query.limit,
    postFiltered: split.postFiltered || tierFiltered,
  });
  const byId = new Map(targets.map((t) => [t.id, t]));
  const results: MemoryResult[] = [];
  for (const hit of hits) {
    const target = byId.get(hit.pool);
    if (!target) continue;
    const tier = target === workspace ? workspaceTierOf(hit) : target.tier;
    if (!tiers.includes(tier)) continue;
    const result = recallResultOfHit(hit, { ...target, tier }, terms);
    if (!split.postFiltered || passesIndexFilters(result.metadata!, split.rest)) {
      results.push(result);
    }
  }
  // One pool keeps the index's ranking (hybrid re-ranking included); several are merged by score.
  return (targets.length > 1 ? results.sort(byScore) : results).slice(0, query.limit);
}

/** The adapter's status: the index's description over its pools, or why recall falls back. */
export async function indexStatus(
  engine: string,
  index: MemoryIndex<MemoryIndexStats>,
  pools: MemoryPoolDefinition[],
  warnings: readonly string[],
): Promise<MemoryAdapterStatus> {
  const details = { pools: poolSummaries(pools) };
  try {
    const described = await index.describe();
    const extra = warnings.length > 0 ? { warnings: [...warnings] } : {};
    return {
      ok: true,
      message: `${described.summary} over ${pools.length} pool(s)`,
      details: { ...details, ...described.details, ...extra },
    };
  } catch (error) {
    return {
      ok: false,
      message: `${engine} unavailable, recall uses the file adapter: ${formatError(error)}`,
      details: { ...details, fallback: 'file', warnings: [...warnings, formatError(error)] },
    };
  }
}

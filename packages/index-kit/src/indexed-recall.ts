import {
  formatError,
  type MemoryAdapterStatus,
  type MemoryIndex,
  type MemoryIndexCapabilities,
  type MemoryIndexHit,
  type MemoryIndexStats,
  type MemoryPoolDefinition,
  type MemoryResult,
  type MemoryTier,
  type NormalizedMemoryQuery,
  type PoolTarget,
} from '@cairn/core';
import { passesIndexFilters, recallIndexFilters, splitIndexFilters } from './index-filters';
import { recallResultOfHit } from './index-hits';
import { byScore, poolSummaries, WORKSPACE_POOL_ID } from './pool-definitions';
import { queryTerms } from './query-terms';

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

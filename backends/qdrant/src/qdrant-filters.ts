import type { MemorySearchFilters, MemoryTier, NormalizedMemoryQuery } from '@cairn/core';
import { reviewStates } from '@cairn/index-kit';

/** A Qdrant filter condition, as the REST API takes it. */
export type Condition = Record<string, unknown>;

export interface QdrantFilter {
  must: Condition[];
  must_not?: Condition[];
}

/** Equality, or any of a list (`match.any`). */
export function matchOf(key: string, wanted: string | string[]): Condition {
  const values = Array.isArray(wanted) ? wanted : [wanted];
  return values.length === 1
    ? { key, match: { value: values[0] } }
    : { key, match: { any: values } };
}

/** The partition one project's recall or refresh may touch. */
export interface Partition {
  namespace: string;
  repo: string;
  embedder?: string;
}

export function partitionConditions(partition: Partition): Condition[] {
  return [
    matchOf('namespace_id', partition.namespace),
    matchOf('repo', partition.repo),
    ...(partition.embedder ? [matchOf('embedder', partition.embedder)] : []),
  ];
}

const DEPRECATED = matchOf('review_state', 'deprecated');

/** Recall metadata keys (as results report them) and the payload key each one filters. */
const PAYLOAD_KEYS: Record<string, string> = {
  poolId: 'pool',
  tier: 'tier',
  path: 'path',
  kind: 'kind',
  category: 'category',
  review: 'review_state',
  memoryId: 'memory_id',
  // Seed 004 partition keys are filterable under their own names.
  record_kind: 'record_kind',
  trust_class: 'trust_class',
  security_scope: 'security_scope',
};

export interface RecallFilter {
  filter: QdrantFilter;
  /** Filters on metadata the payload does not index, checked on each hit. */
  rest: Record<string, string | string[]>;
}

/**
 * A recall query as a Qdrant filter: the partition, the eligible pools and
 * tiers, and the metadata filters the payload holds; deprecated units are
 * left out unless a `review` filter decides (the file index's rule).
 */
export function recallFilter(
  partition: Partition,
  poolIds: string[],
  tiers: MemoryTier[],
  query: NormalizedMemoryQuery,
): RecallFilter {
  const must = [
    ...partitionConditions(partition),
    matchOf('pool', poolIds),
    matchOf('tier', tiers),
  ];
  const rest: Record<string, string | string[]> = {};
  let reviewed = false;
  for (const [key, wanted] of Object.entries(query.filters ?? {})) {
    const payloadKey = PAYLOAD_KEYS[key];
    if (!payloadKey) {
      rest[key] = wanted;
      continue;
    }
    must.push(matchOf(payloadKey, wanted));
    if (key === 'review') reviewed = true;
  }
  return { filter: reviewed ? { must } : { must, must_not: [DEPRECATED] }, rest };
}

/**
 * The backend's search filters (MemorySearchFilters) for the workspace
 * pool. `path` is a prefix, which keyword indexes cannot match: it is
 * returned for a check on each hit.
 */
export function searchFilter(
  partition: Partition,
  pool: string,
  filters: MemorySearchFilters = {},
): { filter: QdrantFilter; pathPrefix?: string } {
  const must = [...partitionConditions(partition), matchOf('pool', pool)];
  const mustNot: Condition[] = [];
  if (filters.kind?.length) must.push(matchOf('kind', filters.kind));
  if (filters.category?.length) must.push(matchOf('category', filters.category));
  const reviews = reviewStates(filters);
  if (reviews.only) must.push(matchOf('review_state', reviews.only));
  else if (reviews.excludeDeprecated) mustNot.push(DEPRECATED);
  if (filters.since || filters.until) {
    const range = {
      ...(filters.since ? { gte: new Date(filters.since).toISOString() } : {}),
      ...(filters.until ? { lt: new Date(filters.until).toISOString() } : {}),
    };
    must.push({ key: 'created_at', range });
  }
  return {
    filter: mustNot.length > 0 ? { must, must_not: mustNot } : { must },
    ...(filters.path ? { pathPrefix: filters.path } : {}),
  };
}

import type { MemoryPoolDefinition, NormalizedMemoryQuery } from '@cairn/core';
import type { FilterColumn } from './index-query';

/** Result metadata keys the index can filter on itself, and their columns. */
const COLUMNS: Record<string, FilterColumn> = {
  path: 'path',
  kind: 'kind',
  category: 'category',
  review: 'review',
  memoryId: 'memory_id',
};
/** Keys that describe the pool itself, decided before querying it. */
const POOL_KEYS = new Set(['poolId', 'tier']);

export interface SplitFilters {
  /** False when a pool-level filter (poolId, tier) already rules the pool out. */
  poolMatches: boolean;
  oneOf: [FilterColumn, string[]][];
  /** Filters on other metadata, checked on each hit after the query. */
  rest: Record<string, string | string[]>;
  /** A `review` filter decides review states; otherwise deprecated units are left out. */
  reviewFiltered: boolean;
}

/** Splits metadata filters into what the pool, the SQL query and a post-check each decide. */
export function splitFilters(
  pool: MemoryPoolDefinition,
  filters: NormalizedMemoryQuery['filters'],
): SplitFilters {
  const split: SplitFilters = { poolMatches: true, oneOf: [], rest: {}, reviewFiltered: false };
  for (const [key, wanted] of Object.entries(filters ?? {})) {
    const values = Array.isArray(wanted) ? wanted : [wanted];
    if (POOL_KEYS.has(key)) {
      const actual = key === 'poolId' ? pool.id : pool.tier;
      if (!values.includes(actual)) split.poolMatches = false;
    } else if (COLUMNS[key]) {
      split.oneOf.push([COLUMNS[key], values]);
      if (key === 'review') split.reviewFiltered = true;
    } else {
      split.rest[key] = wanted;
    }
  }
  return split;
}

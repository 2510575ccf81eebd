import type { MemorySearchFilters } from '@cairn/core';
import { reviewStates } from '@cairn/index-kit';
import type { ChunkQuery, FilterColumn } from './index-query';

/** Turns the contract's search filters into index conditions. Empty lists narrow nothing. */
export function searchFilterQuery(
  filters: MemorySearchFilters = {},
): Pick<ChunkQuery, 'oneOf' | 'excludeDeprecated' | 'sinceMs' | 'untilMs' | 'pathPrefix'> {
  const oneOf: [FilterColumn, string[]][] = [];
  if (filters.kind?.length) oneOf.push(['kind', filters.kind]);
  if (filters.category?.length) oneOf.push(['category', filters.category]);
  const reviews = reviewStates(filters);
  if (reviews.only) oneOf.push(['review', reviews.only]);
  return {
    oneOf,
    excludeDeprecated: reviews.excludeDeprecated,
    ...(filters.since ? { sinceMs: Date.parse(filters.since) } : {}),
    ...(filters.until ? { untilMs: Date.parse(filters.until) } : {}),
    ...(filters.path ? { pathPrefix: filters.path } : {}),
  };
}

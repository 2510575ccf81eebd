import type { MemorySearchFilters } from '@cairn/core';
import type { ChunkQuery, FilterColumn } from './index-query';

/**
 * Turns the contract's search filters into index conditions. An explicit
 * `review` list keeps only units in those states (RAW text has no review
 * state); without one, RAW text and every unit but deprecated ones are kept.
 * `includeDeprecated` adds `deprecated` either way. Empty lists narrow nothing.
 */
export function searchFilterQuery(
  filters: MemorySearchFilters = {},
): Pick<ChunkQuery, 'oneOf' | 'excludeDeprecated' | 'sinceMs' | 'untilMs' | 'pathPrefix'> {
  const oneOf: [FilterColumn, string[]][] = [];
  if (filters.kind?.length) oneOf.push(['kind', filters.kind]);
  if (filters.category?.length) oneOf.push(['category', filters.category]);
  const reviews = filters.review?.length
    ? [...new Set([...filters.review, ...(filters.includeDeprecated ? ['deprecated'] : [])])]
    : undefined;
  if (reviews) oneOf.push(['review', reviews]);
  return {
    oneOf,
    excludeDeprecated: !reviews && filters.includeDeprecated !== true,
    ...(filters.since ? { sinceMs: Date.parse(filters.since) } : {}),
    ...(filters.until ? { untilMs: Date.parse(filters.until) } : {}),
    ...(filters.path ? { pathPrefix: filters.path } : {}),
  };
}

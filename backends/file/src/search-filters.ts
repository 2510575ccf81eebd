import type { MemorySearchFilters } from '@cairn/core';
import type { ChunkQuery, FilterColumn } from './index-query';

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

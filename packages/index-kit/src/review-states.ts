import type { MemorySearchFilters } from '@cairn/core';

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

import type { MemoryIndexFilters } from '@cairn/core';
import type { ChunkQuery, FilterColumn } from './index-query';

/** Index filter fields the chunk table holds as columns. */
const COLUMNS: Record<string, FilterColumn> = {
  path: 'path',
  kind: 'kind',
  category: 'category',
  review: 'review',
  memoryId: 'memory_id',
  // Seed 004 §6.2 keys, under the names recall metadata reports them.
  record_kind: 'record_kind',
  trust_class: 'trust_class',
  namespace_id: 'namespace_id',
  repo: 'repo',
  'run_ref.kind': 'run_ref_kind',
  'run_ref.id': 'run_ref_id',
};

/** The filters as a chunk query; what has no column is checked on each hit (`rest`). */
export function chunkQueryOf(filters: MemoryIndexFilters) {
  const oneOf: [FilterColumn, string[]][] = [];
  const rest: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(filters.oneOf ?? {})) {
    if (COLUMNS[key]) oneOf.push([COLUMNS[key], values]);
    else if (key !== 'poolId' && key !== 'tier') rest[key] = values;
  }
  const query: Omit<ChunkQuery, 'pool' | 'terms' | 'limit'> = {
    oneOf,
    ...(filters.excludeDeprecated ? { excludeDeprecated: true } : {}),
    ...(filters.sinceMs !== undefined ? { sinceMs: filters.sinceMs } : {}),
    ...(filters.untilMs !== undefined ? { untilMs: filters.untilMs } : {}),
    ...(filters.pathPrefix ? { pathPrefix: filters.pathPrefix } : {}),
  };
  return { query, rest: Object.keys(rest).length > 0 ? { oneOf: rest } : undefined };
}

import type { MemoryIndexFilters } from '@cairn/core';
import { CHUNK_FILTER_COLUMNS } from '@cairn/index-kit';
import type { ChunkQuery, FilterColumn } from './index-query';

/** Index filter fields the chunk table holds as columns (the partition's two as well). */
const COLUMNS: Record<string, FilterColumn> = {
  ...CHUNK_FILTER_COLUMNS,
  namespace_id: 'namespace_id',
  repo: 'repo',
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

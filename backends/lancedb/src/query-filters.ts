import type { MemoryIndexFilterName, MemoryIndexQuery } from '@cairn/core';
import { CHUNK_FILTER_COLUMNS } from '@cairn/index-kit';
import { sqlOneOf, sqlString } from './sql';

/** Index filter fields the table holds as columns (its pool and tier too). */
const COLUMNS: Record<string, string> = {
  poolId: 'pool',
  tier: 'tier',
  ...CHUNK_FILTER_COLUMNS,
};

/** What LanceDB applies itself: every column, deprecation, dates and path prefixes. */
export const LANCEDB_PUSHED_FILTERS = [
  ...(Object.keys(COLUMNS) as MemoryIndexFilterName[]),
  'deprecated',
  'created',
  'pathPrefix',
] as const satisfies readonly MemoryIndexFilterName[];

/**
 * A search as LanceDB (DataFusion) predicates: the pools, the caller's
 * agent against each chunk's pool agents, the tiers asked for, and the filters the generic code
 * pushed down. Values are always quoted, never spliced raw.
 */
export function queryClauses(query: MemoryIndexQuery): string[] {
  const clauses = [
    sqlOneOf(
      'pool',
      query.pools.map((pool) => pool.id),
    ),
  ];
  if (query.agentId !== undefined) {
    clauses.push(`agents IS NULL OR array_has(agents, ${sqlString(query.agentId)})`);
  }
  const filters = query.filters;
  for (const [key, values] of Object.entries(filters.oneOf ?? {})) {
    const column = COLUMNS[key];
    if (column) clauses.push(sqlOneOf(column, values));
  }
  if (filters.excludeDeprecated) clauses.push("review IS NULL OR review <> 'deprecated'");
  if (filters.sinceMs !== undefined) clauses.push(`created_ms >= ${filters.sinceMs}`);
  if (filters.untilMs !== undefined) clauses.push(`created_ms < ${filters.untilMs}`);
  if (filters.pathPrefix) clauses.push(`starts_with(path, ${sqlString(filters.pathPrefix)})`);
  return clauses;
}

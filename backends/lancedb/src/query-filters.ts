import type { MemorySearchFilters, MemoryTier, NormalizedMemoryQuery } from '@cairn/core';
import { reviewStates } from '@cairn/index-kit';
import { sqlOneOf, sqlString } from './sql';

const NOT_DEPRECATED = "review IS NULL OR review <> 'deprecated'";

/**
 * The backend search filters as LanceDB predicates, with the file index's
 * rules: an explicit `review` list keeps only units in those states;
 * without one, RAW text and every unit but deprecated ones are kept;
 * `includeDeprecated` adds `deprecated` either way.
 */
export function searchFilterClauses(pool: string, filters: MemorySearchFilters = {}): string[] {
  const clauses = [`pool = ${sqlString(pool)}`];
  if (filters.kind?.length) clauses.push(sqlOneOf('kind', filters.kind));
  if (filters.category?.length) clauses.push(sqlOneOf('category', filters.category));
  const reviews = reviewStates(filters);
  if (reviews.only) clauses.push(sqlOneOf('review', reviews.only));
  else if (reviews.excludeDeprecated) clauses.push(NOT_DEPRECATED);
  if (filters.since) clauses.push(`created_ms >= ${Date.parse(filters.since)}`);
  if (filters.until) clauses.push(`created_ms < ${Date.parse(filters.until)}`);
  if (filters.path) clauses.push(`starts_with(path, ${sqlString(filters.path)})`);
  return clauses;
}

/** Recall filter keys the table holds as columns. */
const COLUMNS: Record<string, string> = {
  poolId: 'pool',
  tier: 'tier',
  path: 'path',
  kind: 'kind',
  category: 'category',
  review: 'review',
  memoryId: 'memory_id',
};

export interface RecallFilters {
  clauses: string[];
  /** Filters on other metadata, checked on each hit after the query. */
  rest: Record<string, string | string[]>;
}

/**
 * A recall query as predicates: the eligible pools, the tiers, the
 * caller's agent against each chunk's pool agents, and the metadata
 * filters the table can apply; deprecated units are left out unless a
 * `review` filter decides.
 */
export function recallFilterClauses(
  poolIds: string[],
  tiers: MemoryTier[],
  query: NormalizedMemoryQuery,
): RecallFilters {
  const clauses = [
    sqlOneOf('pool', poolIds),
    sqlOneOf('tier', tiers),
    `agents IS NULL OR array_has(agents, ${sqlString(query.agentId)})`,
  ];
  const rest: Record<string, string | string[]> = {};
  let reviewed = false;
  for (const [key, wanted] of Object.entries(query.filters ?? {})) {
    const column = COLUMNS[key];
    if (!column) {
      rest[key] = wanted;
      continue;
    }
    clauses.push(sqlOneOf(column, Array.isArray(wanted) ? wanted : [wanted]));
    if (key === 'review') reviewed = true;
  }
  if (!reviewed) clauses.push(NOT_DEPRECATED);
  return { clauses, rest };
}

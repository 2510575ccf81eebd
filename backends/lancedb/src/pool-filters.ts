/**
 * Pool eligibility and post-query metadata filters, with the same rules as
 * `eligible` and `matchesFilters` of @cairn/backend-file (src/pool-filters.ts),
 * which that package does not export yet. Once it does, this file becomes
 * re-exports.
 */
import type { MemoryPoolDefinition, NormalizedMemoryQuery } from '@cairn/core';

/** Whether the pool answers this caller: tier, pool ids, agents and roles. */
export function eligible(pool: MemoryPoolDefinition, query: NormalizedMemoryQuery): boolean {
  if (!query.tiers.includes(pool.tier)) return false;
  if (query.poolIds && !query.poolIds.includes(pool.id)) return false;
  if (pool.agents && !pool.agents.includes(query.agentId)) return false;
  return !pool.roles || (query.role !== undefined && pool.roles.includes(query.role));
}

/** Every key must equal the value, or one of the listed values. */
export function matchesFilters(
  metadata: Record<string, unknown>,
  filters: Record<string, string | string[]>,
): boolean {
  return Object.entries(filters).every(([key, wanted]) => {
    const actual = String(metadata[key] ?? '');
    return Array.isArray(wanted) ? wanted.includes(actual) : wanted === actual;
  });
}

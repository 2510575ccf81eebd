import type { MemoryPoolDefinition, NormalizedMemoryQuery } from '@cairn/core';

/** Whether the pool answers this caller: tier, pool ids, agents and roles. */
export function eligible(pool: MemoryPoolDefinition, query: NormalizedMemoryQuery): boolean {
  if (!query.tiers.includes(pool.tier)) return false;
  if (query.poolIds && !query.poolIds.includes(pool.id)) return false;
  if (pool.agents && !pool.agents.includes(query.agentId)) return false;
  if (pool.roles && (!query.role || !pool.roles.includes(query.role))) return false;
  return true;
}

/** Metadata filters: every key must equal the value, or one of the listed values. */
export function matchesFilters(
  metadata: Record<string, unknown>,
  filters: NormalizedMemoryQuery['filters'],
): boolean {
  for (const [key, wanted] of Object.entries(filters ?? {})) {
    const actual = String(metadata[key] ?? '');
    if (Array.isArray(wanted) ? !wanted.includes(actual) : wanted !== actual) return false;
  }
  return true;
}

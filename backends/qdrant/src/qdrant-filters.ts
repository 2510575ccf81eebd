import type { MemoryIndexQuery } from '@cairn/core';

/** A Qdrant filter condition, as the REST API takes it. */
export type Condition = Record<string, unknown>;

export interface QdrantFilter {
  must: Condition[];
  must_not?: Condition[];
}

/** Equality, or any of a list (`match.any`). */
export function matchOf(key: string, wanted: string | string[]): Condition {
  const values = Array.isArray(wanted) ? wanted : [wanted];
  return values.length === 1
    ? { key, match: { value: values[0] } }
    : { key, match: { any: values } };
}

/** The partition one project's recall or refresh may touch. */
export interface Partition {
  namespace: string;
  repo: string;
  embedder?: string;
}

export function partitionConditions(partition: Partition): Condition[] {
  return [
    matchOf('namespace_id', partition.namespace),
    matchOf('repo', partition.repo),
    ...(partition.embedder ? [matchOf('embedder', partition.embedder)] : []),
  ];
}

const DEPRECATED = matchOf('review_state', 'deprecated');

/** Recall metadata keys (as results report them) and the payload key each one filters. */
const PAYLOAD_KEYS: Record<string, string> = {
  poolId: 'pool',
  tier: 'tier',
  path: 'path',
  kind: 'kind',
  category: 'category',
  review: 'review_state',
  memoryId: 'memory_id',
  // Seed 004 partition keys are filterable under their own names.
  record_kind: 'record_kind',
  trust_class: 'trust_class',
  security_scope: 'security_scope',
  // Nested payload keys: `run_ref: { kind, id }`.
  'run_ref.kind': 'run_ref.kind',
  'run_ref.id': 'run_ref.id',
};

/** What Qdrant applies itself: every payload key above, deprecation and dates (not path prefixes). */
export const QDRANT_PUSHED_FILTERS = [
  ...Object.keys(PAYLOAD_KEYS),
  'deprecated',
  'created',
] as const satisfies readonly string[];

/**
 * A search as a Qdrant filter: the partition, the pools (and tiers asked
 * for), the payload filters pushed down, deprecated units left out unless
 * a `review` filter decides (the file index's rule), and the creation range.
 */
export function indexFilter(partition: Partition, query: MemoryIndexQuery): QdrantFilter {
  const must = [
    ...partitionConditions(partition),
    matchOf(
      'pool',
      query.pools.map((pool) => pool.id),
    ),
  ];
  if (query.tiers) must.push(matchOf('tier', query.tiers));
  const { oneOf = {}, excludeDeprecated, sinceMs, untilMs } = query.filters;
  for (const [key, values] of Object.entries(oneOf)) {
    const payloadKey = PAYLOAD_KEYS[key];
    if (payloadKey) must.push(matchOf(payloadKey, values));
  }
  if (sinceMs !== undefined || untilMs !== undefined) {
    const range = {
      ...(sinceMs !== undefined ? { gte: new Date(sinceMs).toISOString() } : {}),
      ...(untilMs !== undefined ? { lt: new Date(untilMs).toISOString() } : {}),
    };
    must.push({ key: 'created_at', range });
  }
  return excludeDeprecated ? { must, must_not: [DEPRECATED] } : { must };
}

import {
  RECORD_METADATA_KEYS as KEYS,
  type MemoryPoolDefinition,
  type MemoryRecordMeta,
  type MemorySearchResult,
  recordKindOf,
  recordTrustOf,
} from '@cairn/core';

/** Where a hit sits in its pool, and the fields of the unit it belongs to (absent: undefined or null). */
export interface ChunkPlace {
  path: string;
  startLine: number;
  endLine: number;
  kind: string;
  memoryId?: string | null | undefined;
  category?: string | null | undefined;
  review?: string | null | undefined;
  createdAt?: string | null | undefined;
  /** The task-history record of the chunk, when it is one (seed 004 §6.2). */
  record?: MemoryRecordMeta | null | undefined;
}

/**
 * Seed 004 §6.2's record fields as recall metadata: every hit has its
 * `record_kind` and `trust_class`; a task-history record also its
 * namespace, repo and run ref.
 */
export function recordMetadata(place: ChunkPlace): Record<string, unknown> {
  const record = place.record ?? undefined;
  const chunk = { kind: place.kind, review: place.review, record };
  return {
    [KEYS.kind]: recordKindOf(chunk),
    [KEYS.trustClass]: recordTrustOf(chunk),
    ...(record
      ? {
          [KEYS.namespace]: record.namespace,
          [KEYS.repo]: record.repo,
          ...(record.runRef
            ? { [KEYS.runRefKind]: record.runRef.kind, [KEYS.runRefId]: record.runRef.id }
            : {}),
        }
      : {}),
  };
}

/** The metadata of a recall result: its pool, its place, and the unit fields it has. */
export function recallMetadata(
  pool: Pick<MemoryPoolDefinition, 'id' | 'tier'>,
  place: ChunkPlace,
): Record<string, unknown> {
  return {
    poolId: pool.id,
    tier: pool.tier,
    path: place.path,
    startLine: place.startLine,
    endLine: place.endLine,
    kind: place.kind,
    ...(place.memoryId ? { memoryId: place.memoryId } : {}),
    ...(place.category ? { category: place.category } : {}),
    ...(place.review ? { review: place.review } : {}),
    ...(place.createdAt ? { createdAt: place.createdAt } : {}),
    ...recordMetadata(place),
  };
}

/** A search hit as the backend contract reports it: its place, score and snippet, and the unit fields. */
export function searchResultOf(
  place: ChunkPlace,
  score: number,
  snippet: string,
): MemorySearchResult {
  return {
    path: place.path,
    startLine: place.startLine,
    endLine: place.endLine,
    score,
    snippet,
    kind: place.kind === 'UNIT' ? 'UNIT' : 'RAW',
    ...(place.memoryId ? { memoryId: place.memoryId } : {}),
    ...(place.category ? { category: place.category } : {}),
    ...(place.review ? { review: place.review } : {}),
    ...(place.createdAt ? { createdAt: place.createdAt } : {}),
  };
}

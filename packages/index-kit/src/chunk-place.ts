import type { MemoryPoolDefinition, MemorySearchResult } from '@cairn/core';

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
    ...(place.createdAt ? { createdAt: place.createdAt } : {}),
  };
}

import { join } from 'node:path';
import type { MemoryIndexHit, MemoryResult, MemorySearchResult, PoolTarget } from '@cairn/core';
import { recallMetadata, searchResultOf } from './chunk-place';
import { boundSnippet } from './keyword-scan';

/** Most characters of a recall snippet. */
export const RECALL_SNIPPET_CHARS = 320;
/** Candidates an index fetches when some filters can only be checked after the query. */
export const POST_FILTER_CANDIDATES = 1000;

/** How many hits an index asks its engine for: `limit`, or candidates when filters follow. */
export function candidateCount(query: { limit: number; postFiltered: boolean }): number {
  return query.postFiltered ? POST_FILTER_CANDIDATES : query.limit;
}

/** A hit's recall metadata: pool, place, unit fields, scores and the engine's extras. */
export function hitMetadata(
  hit: MemoryIndexHit,
  pool: Pick<PoolTarget, 'id' | 'tier'>,
): Record<string, unknown> {
  return {
    ...recallMetadata(pool, hit),
    ...(hit.similarity !== undefined ? { similarity: hit.similarity } : {}),
    ...(hit.keywordScore !== undefined ? { keywordScore: hit.keywordScore } : {}),
    ...hit.metadata,
  };
}

/** A hit as the backend contract reports it (seed 000), with the engine's metadata when it has some. */
export function searchResultOfHit(
  hit: MemoryIndexHit,
  terms: string[],
  snippetChars: number,
): MemorySearchResult & { metadata?: Record<string, unknown> } {
  const snippet = boundSnippet(hit.text, hit.highlight ?? terms, snippetChars);
  const result = searchResultOf(hit, hit.score, snippet);
  return hit.metadata ? { ...result, metadata: hit.metadata } : result;
}

/** A hit as recall reports it (seed 001): its file under the pool's folder and its metadata. */
export function recallResultOfHit(
  hit: MemoryIndexHit,
  target: PoolTarget,
  terms: string[],
): MemoryResult {
  return {
    id: hit.id,
    uri: join(target.base, ...hit.path.split('/')),
    score: hit.score,
    snippet: boundSnippet(hit.text, hit.highlight ?? terms, RECALL_SNIPPET_CHARS),
    metadata: hitMetadata(hit, target),
  };
}

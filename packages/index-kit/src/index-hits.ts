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
    ...(hit.matchedTerms ? { matchedTerms: hit.matchedTerms } : {}),
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

/**
 * A hit as recall reports it (seed 001): its file under the pool's folder,
 * a bounded snippet, the chunk's text as `content` (a caller bounds it to
 * its own length, see `searchResultOfRecall`) and its metadata, with the
 * words the engine centres snippets on as `highlight` when it chose them.
 */
export function recallResultOfHit(
  hit: MemoryIndexHit,
  target: Pick<PoolTarget, 'id' | 'tier' | 'base'>,
  terms: string[],
): MemoryResult {
  const metadata = hitMetadata(hit, target);
  return {
    id: hit.id,
    uri: join(target.base, ...hit.path.split('/')),
    score: hit.score,
    snippet: boundSnippet(hit.text, hit.highlight ?? terms, RECALL_SNIPPET_CHARS),
    content: hit.text,
    metadata: hit.highlight ? { ...metadata, highlight: hit.highlight } : metadata,
  };
}

/** Recall metadata keys that are the hit's place and unit fields, not the engine's extras. */
const PLACE_KEYS = new Set([
  'poolId',
  'tier',
  'path',
  'startLine',
  'endLine',
  'kind',
  'memoryId',
  'category',
  'review',
  'createdAt',
  'similarity',
  'keywordScore',
  'highlight',
  'matchedTerms',
]);

/**
 * A recall result of the workspace as the backend contract reports a hit
 * (seed 000): place, unit fields, score, a snippet of `snippetChars`
 * bounded from the chunk's text, and the engine's extras as `metadata`.
 * The inverse of `recallResultOfHit`, kept beside it so they agree.
 */
export function searchResultOfRecall(
  result: MemoryResult,
  terms: string[],
  snippetChars: number,
): MemorySearchResult & { metadata?: Record<string, unknown> } {
  const meta = result.metadata ?? {};
  const highlight = Array.isArray(meta.highlight) ? (meta.highlight as string[]) : terms;
  const text = result.content ?? result.snippet ?? '';
  const place = {
    path: String(meta.path ?? ''),
    startLine: Number(meta.startLine ?? 0),
    endLine: Number(meta.endLine ?? 0),
    kind: String(meta.kind ?? 'RAW'),
    memoryId: meta.memoryId as string | undefined,
    category: meta.category as string | undefined,
    review: meta.review as string | undefined,
    createdAt: meta.createdAt as string | undefined,
  };
  const found = searchResultOf(
    place,
    result.score ?? 0,
    boundSnippet(text, highlight, snippetChars),
  );
  const extras = Object.entries(meta).filter(([key]) => !PLACE_KEYS.has(key));
  return extras.length > 0 ? { ...found, metadata: Object.fromEntries(extras) } : found;
}

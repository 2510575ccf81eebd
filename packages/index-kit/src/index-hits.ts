import { join } from 'node:path';
import {
  RECORD_METADATA_KEYS as KEYS,
  type MemoryIndexHit,
  type MemoryPoolDefinition,
  type MemoryRecordMeta,
  type MemoryResult,
  type MemorySearchResult,
  type PoolTarget,
  recordKindOf,
  recordTrustOf,
} from '@cairn/core';
import { boundSnippet } from './query-terms';

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

import { type Embedder, embedderKey, formatError } from '@cairn/core';
import { type IndexSource, POST_FILTER_CANDIDATES } from '@cairn/index-kit';
import {
  type Candidate,
  DEFAULT_HYBRID_RANKING,
  type HybridRanking,
  rankHybrid,
} from './hybrid-rank';
import type { IndexDatabase } from './index-database';
import { type ChunkHit, type ChunkQuery, chunksByRank } from './index-query';
import { checkedVectors, dot, type PoolVectors } from './pool-vectors';
import { vectorStoreFor } from './vector-store';

/** What hybrid search needs beyond the keyword index. */
export interface HybridSearch {
  embedder: Embedder;
  ranking: HybridRanking;
  /** The clock for recency decay; default `Date.now`. */
  now?: () => number;
}

/** How callers configure hybrid search: an embedder turns it on. */
export interface HybridSearchOptions {
  /** Vectors are stored and searched only when an embedder is given. */
  embedder?: Embedder;
  /** Fusion, MMR and recency; unset fields keep DEFAULT_HYBRID_RANKING. */
  ranking?: Partial<HybridRanking>;
  /** The clock for recency decay (tests pin it). */
  now?: () => number;
}

/** The hybrid configuration, or undefined for keyword-only search. */
export function hybridSearchOf(options: HybridSearchOptions): HybridSearch | undefined {
  if (!options.embedder) return undefined;
  return {
    embedder: options.embedder,
    ranking: { ...DEFAULT_HYBRID_RANKING, ...options.ranking },
    ...(options.now ? { now: options.now } : {}),
  };
}

/** How a search was answered: stated on every result so a fallback is never silent. */
export interface SearchModeInfo {
  mode: 'hybrid' | 'keyword';
  /** The embedder key, when one is configured. */
  embedder?: string;
  /** Why hybrid search fell back to keyword (the embedder's error). */
  embedderError?: string;
}

export interface PoolSearchOutcome {
  hits: ChunkHit[];
  info: SearchModeInfo;
}

/** Candidates taken from each side, per result wanted (and at least MIN_CANDIDATES). */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 40;

async function embedQuery(embedder: Embedder, text: string): Promise<Float32Array> {
  return checkedVectors(embedder, await embedder.embed([text]), 1)[0]!;
}

/** Nearest chunks that pass the query's filters; widens to every vector when filters starve it. */
function vectorHits(
  database: IndexDatabase,
  vectors: PoolVectors,
  query: ChunkQuery,
  queryVector: Float32Array,
): ChunkHit[] {
  const store = database.connection();
  const rank = (k: number) =>
    chunksByRank(
      store,
      query,
      vectors.nearest(queryVector, k).map((n) => ({ id: n.rowid, rank: -n.similarity })),
    );
  const first = rank(query.limit * 2);
  if (first.length >= query.limit || vectors.size <= query.limit * 2) return first;
  return rank(vectors.size);
}

function candidatesOf(
  keywordHits: ChunkHit[],
  nearHits: ChunkHit[],
  vectors: PoolVectors,
  queryVector: Float32Array,
  accept: (hit: ChunkHit) => boolean,
): Candidate[] {
  // nearHits carry the similarity as their score.
  const byRow = new Map<number, Candidate>();
  for (const hit of [...keywordHits, ...nearHits]) {
    if (byRow.has(hit.rowid) || !accept(hit)) continue;
    const vector = vectors.vectorOf(hit.rowid);
    byRow.set(hit.rowid, {
      hit,
      ...(vector ? { vector, similarity: dot(vector, queryVector) } : {}),
    });
  }
  for (const hit of keywordHits) {
    const candidate = byRow.get(hit.rowid);
    if (candidate && candidate.hit === hit) candidate.keyword = hit.score;
  }
  return [...byRow.values()];
}

/** One pool search: the index query (its `limit` is the results wanted) and the raw text. */
export interface PoolSearchRequest {
  query: ChunkQuery;
  text: string;
  /** Filters the index cannot apply, checked on each hit; more candidates are fetched for it. */
  postFilter?: (hit: ChunkHit) => boolean;
}

/**
 * Searches one pool: refreshes it, then keyword only (no embedder), or
 * hybrid: keyword and vector candidates fused, decayed and re-ranked. An
 * embedder failure answers with keyword hits and says so in `info`.
 */
export async function searchPool(
  database: IndexDatabase,
  source: IndexSource,
  request: PoolSearchRequest,
  hybrid: HybridSearch | undefined,
): Promise<PoolSearchOutcome> {
  const { query, text, postFilter } = request;
  const accept = postFilter ?? (() => true);
  await database.refreshPool(source);
  const keyword = () => {
    const fetch = postFilter ? POST_FILTER_CANDIDATES : query.limit;
    return database
      .queryPool({ ...query, limit: fetch })
      .filter(accept)
      .slice(0, query.limit);
  };
  if (!hybrid) return { hits: keyword(), info: { mode: 'keyword' } };
  const key = embedderKey(hybrid.embedder);
  let vectors: PoolVectors;
  let queryVector: Float32Array;
  try {
    vectors = await vectorStoreFor(database, hybrid.embedder).sync(source.pool);
    queryVector = await embedQuery(hybrid.embedder, text);
  } catch (error) {
    const embedderError = formatError(error);
    return { hits: keyword(), info: { mode: 'keyword', embedder: key, embedderError } };
  }
  const wanted = postFilter
    ? POST_FILTER_CANDIDATES
    : Math.max(query.limit * CANDIDATES_PER_RESULT, MIN_CANDIDATES);
  const wide = { ...query, limit: wanted };
  const candidates = candidatesOf(
    database.queryPool(wide),
    vectorHits(database, vectors, wide, queryVector).filter(
      (hit) => hit.score >= hybrid.ranking.minSimilarity,
    ),
    vectors,
    queryVector,
    accept,
  );
  const now = hybrid.now?.() ?? Date.now();
  const ranked = rankHybrid(candidates, hybrid.ranking, query.limit, now);
  const hits = ranked.map((r) => ({ ...r.hit, score: Number(r.score.toPrecision(6)) }));
  return { hits, info: { mode: 'hybrid', embedder: key } };
}

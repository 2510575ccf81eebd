import { compareCodeUnits, type Embedder } from '@cairn/core';
import type { LancedbSearchMode } from './lancedb-options';
import type { LancedbStore } from './lancedb-store';
import type { ResultRow } from './table-schema';

export interface ChunkSearch {
  /** The query as typed: embedded for the vector arm. */
  text: string;
  /** Its keywords (stop words dropped): the full-text arm. */
  terms: string[];
  where: string | undefined;
  limit: number;
  mode: LancedbSearchMode;
  embedder: Embedder;
  rrfK: number;
  /** Vector hits below this cosine similarity are not evidence of anything. */
  minSimilarity: number;
}

/** One fused hit, best first. */
export interface RankedHit extends ResultRow {
  /** Reciprocal-rank score in hybrid mode; similarity or bm25 in single-arm modes. */
  score: number;
  /** Cosine similarity, when the vector arm found it. */
  similarity?: number;
  /** bm25, when the full-text arm found it. */
  keywordScore?: number;
}

/** Each arm fetches this many candidates per wanted result before fusion. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 40;

const round = (value: number) => Number(value.toPrecision(6));

/**
 * Hybrid recall: a cosine nearest-neighbour query and a BM25 full-text
 * query over the same filter, fused with reciprocal rank fusion
 * (score = Σ 1 / (k + rank)). Ties are broken by chunk id, so equal
 * indexes always answer in the same order. Our own fusion rather than
 * LanceDB's reranker: the same code ranks a filtered or post-filtered
 * candidate set, and it reports each arm's evidence.
 */
export async function searchChunks(store: LancedbStore, search: ChunkSearch): Promise<RankedHit[]> {
  const hybrid = search.mode === 'hybrid';
  const fetch = hybrid
    ? Math.max(search.limit * CANDIDATES_PER_RESULT, MIN_CANDIDATES)
    : search.limit;
  const useVector = search.mode !== 'keyword';
  const useKeyword = search.mode !== 'vector' && search.terms.length > 0;
  const [vectorHits, keywordHits] = await Promise.all([
    useVector
      ? search.embedder
          .embed([search.text])
          .then(([vector]) => store.vectorSearch(vector!, search.where, fetch))
      : [],
    useKeyword ? store.keywordSearch(search.terms.join(' '), search.where, fetch) : [],
  ]);
  const hits = new Map<string, RankedHit>();
  const add = (row: ResultRow, rank: number, evidence: Partial<RankedHit>) => {
    const { _distance, _score, ...fields } = row as ResultRow & {
      _distance?: number;
      _score?: number;
    };
    const hit = hits.get(row.chunk_id) ?? { ...fields, score: 0 };
    hit.score += hybrid
      ? 1 / (search.rrfK + rank)
      : (evidence.similarity ?? evidence.keywordScore ?? 0);
    hits.set(row.chunk_id, { ...hit, ...evidence });
  };
  let rank = 0;
  for (const row of vectorHits) {
    const similarity = 1 - row._distance;
    if (similarity < search.minSimilarity) continue;
    rank += 1;
    add(row, rank, { similarity: round(similarity) });
  }
  for (const [index, row] of keywordHits.entries()) {
    add(row, index + 1, { keywordScore: round(row._score) });
  }
  return [...hits.values()]
    .map((hit) => ({ ...hit, score: round(hit.score) }))
    .sort((a, b) => b.score - a.score || compareCodeUnits(a.chunk_id, b.chunk_id));
}

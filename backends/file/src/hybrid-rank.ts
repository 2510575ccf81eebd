import { compareCodeUnits } from '@cairn/core';
import type { ChunkHit } from './index-query';
import { dot } from './pool-vectors';

/** How hybrid search ranks; every field is switchable through settings (see docs/SEARCH.md). */
export interface HybridRanking {
  /** Weight of the vector similarity in the fused score. Default 0.3. */
  vectorWeight: number;
  /** Weight of the bm25 score in the fused score. Default 0.7. */
  keywordWeight: number;
  /** Re-rank with maximal marginal relevance. Default false. */
  mmr: boolean;
  /** MMR trade-off: 1 pure relevance, 0 pure diversity. Default 0.8. */
  mmrLambda: number;
  /** RAW notes of dated daily files halve their score every this many days; 0 is off. Default 90. */
  recencyHalfLifeDays: number;
  /**
   * A chunk found by vector alone needs at least this cosine similarity:
   * nearest neighbours always exist, relevant ones do not. Default 0.1.
   */
  minSimilarity: number;
}

export const DEFAULT_HYBRID_RANKING: Readonly<HybridRanking> = Object.freeze({
  vectorWeight: 0.3,
  keywordWeight: 0.7,
  mmr: false,
  mmrLambda: 0.8,
  recencyHalfLifeDays: 90,
  minSimilarity: 0.1,
});

/** One chunk found by keyword, by vector, or by both. */
export interface Candidate {
  hit: ChunkHit;
  /** The bm25 score (higher is better), when the keyword query found it. */
  keyword?: number;
  /** Cosine similarity to the query, when the chunk has a vector. */
  similarity?: number;
  vector?: Float32Array;
}

export interface RankedCandidate extends Candidate {
  /** Fused relevance after recency, in [0, 1]. */
  relevance: number;
  /** The final score: relevance, or the MMR value when MMR re-ranked. */
  score: number;
}

const DAY_MS = 86_400_000;
const DAILY_FILE = /(?:^|\/)(\d{4}-\d{2}-\d{2})\.md$/;

/**
 * The recency factor of a hit: RAW text in a dated daily file decays with
 * the file's age; managed units, MEMORY.md, threads and undated files are
 * evergreen (factor 1).
 */
export function recencyFactor(hit: ChunkHit, nowMs: number, halfLifeDays: number): number {
  if (halfLifeDays <= 0 || hit.kind === 'UNIT') return 1;
  const day = DAILY_FILE.exec(hit.path)?.[1];
  const dayMs = day ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(dayMs)) return 1;
  const ageDays = Math.max(0, (nowMs - dayMs) / DAY_MS);
  return 0.5 ** (ageDays / halfLifeDays);
}

/**
 * Weighted fusion: bm25 scaled by the best bm25 among the candidates,
 * similarity (below zero counts as zero) scaled by the best similarity,
 * each in [0, 1], combined with the two weights (normalized to sum to 1).
 */
export function fuseScores(
  candidates: Candidate[],
  ranking: HybridRanking,
  nowMs: number,
): RankedCandidate[] {
  const maxKeyword = Math.max(0, ...candidates.map((c) => c.keyword ?? 0));
  const maxSimilarity = Math.max(0, ...candidates.map((c) => c.similarity ?? 0));
  const total = ranking.vectorWeight + ranking.keywordWeight || 1;
  const wv = ranking.vectorWeight / total;
  const wk = ranking.keywordWeight / total;
  return candidates.map((candidate) => {
    const k = maxKeyword > 0 ? Math.max(0, candidate.keyword ?? 0) / maxKeyword : 0;
    const v = maxSimilarity > 0 ? Math.max(0, candidate.similarity ?? 0) / maxSimilarity : 0;
    const decay = recencyFactor(candidate.hit, nowMs, ranking.recencyHalfLifeDays);
    const relevance = (wv * v + wk * k) * decay;
    return { ...candidate, relevance, score: relevance };
  });
}

function byRelevance(a: RankedCandidate, b: RankedCandidate): number {
  return (
    b.relevance - a.relevance ||
    compareCodeUnits(a.hit.path, b.hit.path) ||
    a.hit.startLine - b.hit.startLine ||
    compareCodeUnits(a.hit.chunkId, b.hit.chunkId)
  );
}

/**
 * Maximal marginal relevance: picks, one at a time, the candidate with the
 * best `lambda * relevance - (1 - lambda) * (max similarity to a pick)`.
 * The value at each pick never rises, so it is the score: results stay
 * sorted by score when merged with other pools.
 */
export function mmrRerank(
  ranked: RankedCandidate[],
  limit: number,
  lambda: number,
): RankedCandidate[] {
  const left = [...ranked].sort(byRelevance);
  const picked: RankedCandidate[] = [];
  const closest = left.map(() => 0);
  while (picked.length < limit && left.length > 0) {
    let best = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    left.forEach((candidate, i) => {
      const value = lambda * candidate.relevance - (1 - lambda) * closest[i]!;
      if (value > bestValue) {
        best = i;
        bestValue = value;
      }
    });
    const [chosen] = left.splice(best, 1);
    closest.splice(best, 1);
    picked.push({ ...chosen!, score: bestValue });
    if (!chosen!.vector) continue;
    left.forEach((candidate, i) => {
      if (candidate.vector)
        closest[i] = Math.max(closest[i]!, dot(chosen!.vector!, candidate.vector));
    });
  }
  return picked;
}

/** Fuses, applies recency, then MMR (when on) or a plain sort; at most `limit` results. */
export function rankHybrid(
  candidates: Candidate[],
  ranking: HybridRanking,
  limit: number,
  nowMs: number,
): RankedCandidate[] {
  const fused = fuseScores(candidates, ranking, nowMs);
  if (ranking.mmr) return mmrRerank(fused, limit, ranking.mmrLambda);
  return fused.sort(byRelevance).slice(0, limit);
}

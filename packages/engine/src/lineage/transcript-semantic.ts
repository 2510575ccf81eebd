import type { Embedder } from '@cairn/core';
import type { TranscriptHit } from './lineage-types';
import type { TranscriptCandidate } from './transcript-candidates';

/** Reciprocal rank fusion constant (the usual 60). */
const RRF_K = 60;
/** Below this cosine similarity an entry found only by meaning is left out. */
export const MIN_TRANSCRIPT_SIMILARITY = 0.3;

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Ranks transcript candidates by meaning and words together: the cosine
 * similarity of each entry to the query (through `embedder`, whose cache
 * keeps every entry's vector) fused by reciprocal rank with the full-text
 * rank. An entry no word matched needs MIN_TRANSCRIPT_SIMILARITY. The
 * returned score is the fused score (higher is better). Throws when the
 * embedder fails; the caller falls back to the full-text hits.
 */
export async function rankTranscriptsByMeaning(
  candidates: readonly TranscriptCandidate[],
  query: string,
  embedder: Embedder,
  limit: number,
): Promise<TranscriptHit[]> {
  if (candidates.length === 0 || !query.trim()) return [];
  const [queryVector, ...vectors] = await embedder.embed([query, ...candidates.map((c) => c.text)]);
  const similarity = candidates.map((_, i) => cosine(queryVector!, vectors[i]!));
  const byMeaning = candidates.map((_, i) => i).sort((a, b) => similarity[b]! - similarity[a]!);
  const meaningRank = new Map(byMeaning.map((index, rank) => [index, rank]));
  const fused = candidates.map((candidate, i) => {
    // The full-text hits come first, in rank order, so `i` is their rank.
    const keep = candidate.matched || similarity[i]! >= MIN_TRANSCRIPT_SIMILARITY;
    const words = candidate.matched ? 1 / (RRF_K + i) : 0;
    const meaning = 1 / (RRF_K + meaningRank.get(i)!);
    return { candidate, keep, score: words + meaning };
  });
  return fused
    .filter((entry) => entry.keep)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ candidate, score }) => {
      const { text: _text, matched: _matched, ...hit } = candidate;
      return { ...hit, score };
    });
}

/**
 * Retrieval metrics over a ranked list of dia_ids (undefined for a hit that
 * is not a dialogue turn). A dia_id counts once, at its best rank.
 */

export interface QuestionScores {
  hit1: number;
  recall5: number;
  recall10: number;
  ndcg5: number;
}

export const METRIC_NAMES = ['hit1', 'recall5', 'recall10', 'ndcg5'] as const;

/** The first k ranks with repeated ids blanked, so a turn hit twice scores once. */
function firstOccurrences(
  ranked: readonly (string | undefined)[],
  k: number,
): (string | undefined)[] {
  const seen = new Set<string>();
  return ranked.slice(0, k).map((id) => {
    if (id === undefined || seen.has(id)) return undefined;
    seen.add(id);
    return id;
  });
}

/** 1 when the top result is an evidence turn. */
export function hitAt1(
  ranked: readonly (string | undefined)[],
  evidence: ReadonlySet<string>,
): number {
  const top = ranked[0];
  return top !== undefined && evidence.has(top) ? 1 : 0;
}

/** Fraction of the evidence found in the top k. */
export function recallAtK(
  ranked: readonly (string | undefined)[],
  evidence: ReadonlySet<string>,
  k: number,
): number {
  if (evidence.size === 0) return 0;
  const found = firstOccurrences(ranked, k).filter((id) => id !== undefined && evidence.has(id));
  return found.length / evidence.size;
}

/** Binary-relevance NDCG@k; the ideal ranking puts min(|evidence|, k) relevant turns first. */
export function ndcgAtK(
  ranked: readonly (string | undefined)[],
  evidence: ReadonlySet<string>,
  k: number,
): number {
  const gain = (rank: number) => 1 / Math.log2(rank + 2);
  let dcg = 0;
  firstOccurrences(ranked, k).forEach((id, rank) => {
    if (id !== undefined && evidence.has(id)) dcg += gain(rank);
  });
  let ideal = 0;
  for (let rank = 0; rank < Math.min(evidence.size, k); rank += 1) ideal += gain(rank);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function scoreQuestion(
  ranked: readonly (string | undefined)[],
  evidence: readonly string[],
): QuestionScores {
  const relevant = new Set(evidence);
  return {
    hit1: hitAt1(ranked, relevant),
    recall5: recallAtK(ranked, relevant, 5),
    recall10: recallAtK(ranked, relevant, 10),
    ndcg5: ndcgAtK(ranked, relevant, 5),
  };
}

export interface ScoredQuestion {
  category: number;
  scores: QuestionScores;
  /** The conversation the question belongs to, for figures by part of the split. */
  conversation?: string;
}

export interface MetricSummary extends QuestionScores {
  questions: number;
}

function average(items: readonly ScoredQuestion[]): MetricSummary {
  const summary: MetricSummary = {
    questions: items.length,
    hit1: 0,
    recall5: 0,
    recall10: 0,
    ndcg5: 0,
  };
  for (const name of METRIC_NAMES) {
    const total = items.reduce((sum, item) => sum + item.scores[name], 0);
    summary[name] = items.length ? total / items.length : Number.NaN;
  }
  return summary;
}

/** Means over all questions and per category (keys `all`, `1`..`4`). */
export function summarize(items: readonly ScoredQuestion[]): Record<string, MetricSummary> {
  const categories = [...new Set(items.map((item) => item.category))].sort((a, b) => a - b);
  return {
    all: average(items),
    ...Object.fromEntries(
      categories.map((category) => [
        String(category),
        average(items.filter((i) => i.category === category)),
      ]),
    ),
  };
}

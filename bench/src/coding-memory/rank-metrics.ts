import type { CodingQuestion, QuestionPart } from './coding-set';

/** Where the labelled unit came back for one question: 0 is first, -1 not in the results. */
export interface RankedAnswer {
  question: CodingQuestion;
  rank: number;
  /** The unit id of the first result, when there was one. */
  first: string | undefined;
}

export interface RankSummary {
  questions: number;
  hit1: number;
  hit3: number;
  /** Mean reciprocal rank over the results asked for (0 when the unit is not among them). */
  mrr: number;
}

export function summarizeRanks(answers: readonly RankedAnswer[]): RankSummary {
  const n = answers.length;
  const share = (keep: (rank: number) => boolean) =>
    n === 0 ? Number.NaN : answers.filter((a) => keep(a.rank)).length / n;
  return {
    questions: n,
    hit1: share((rank) => rank === 0),
    hit3: share((rank) => rank >= 0 && rank < 3),
    mrr:
      n === 0
        ? Number.NaN
        : answers.reduce((sum, a) => sum + (a.rank >= 0 ? 1 / (a.rank + 1) : 0), 0) / n,
  };
}

export type PartKey = QuestionPart | 'all';

/** Summaries over the tuning part, the held-out part and both. */
export function byPart(answers: readonly RankedAnswer[]): Record<PartKey, RankSummary> {
  return {
    tune: summarizeRanks(answers.filter((a) => a.question.part === 'tune')),
    'held-out': summarizeRanks(answers.filter((a) => a.question.part === 'held-out')),
    all: summarizeRanks(answers),
  };
}

/** Summaries by what makes the question differ from its unit. */
export function byKind(answers: readonly RankedAnswer[]): Record<string, RankSummary> {
  const kinds = [...new Set(answers.map((a) => a.question.kind))].sort();
  return Object.fromEntries(
    kinds.map((kind) => [kind, summarizeRanks(answers.filter((a) => a.question.kind === kind))]),
  );
}

import { compareCodeUnits } from '@cairn/core';
import { CONTEXT_WEIGHT } from './chunk-context';
import type { CorpusStats } from './corpus-stats';
import {
  asks,
  frequency,
  labelStems,
  type PlannedTerm,
  type QueryStems,
  queryStems,
  readField,
} from './query-plan';

/*
 * The second stage of keyword search: FTS5 finds the candidates, this
 * ranks them with everything FTS5's bm25 cannot weigh (docs/SEARCH.md,
 * "Ranking"): each term's own weight (expansions weigh less than the
 * query's words), each field's own length normalization, the question a
 * chunk answers, the file a chunk sits in, the label it opens with, and
 * which chunks match only through their neighbours or are views.
 */

/** BM25's term-frequency saturation, as FTS5's bm25. */
const K1 = 1.2;
/**
 * Each field's weight: the derived forms (camelCase parts, joined
 * compounds, dates) count as the chunk's own words, its neighbours' words less.
 */
const FIELD_WEIGHTS = [1, 1, CONTEXT_WEIGHT] as const;
/**
 * Each field's length normalization (BM25F's b): none for the chunk's own
 * text, where a longer note or reply says more rather than the same at
 * greater length (measured on LoCoMo, docs/SEARCH.md), FTS5's 0.75 for
 * the derived terms and the neighbours' context.
 */
const FIELD_B = [0, 0.75, 0.75] as const;
/** Share of a question's score that the chunk right after it (its answer) gains. */
export const ANSWER_WEIGHT = 0.2;
/** Weight of the chunk's file (its best candidates' scores, scaled by the best file's) beside its own. */
export const FILE_WEIGHT = 0.3;
/** How many of a file's best candidates make its share: a long file's many weak matches add nothing. */
export const FILE_CANDIDATES = 3;
/** A lower tier's best score as a share of the higher tier's last (see `rerank`). */
const TIER_STEP = 0.99;
/** A chunk whose leading label (`Melanie:`, `Decision:`) names a query word. */
export const LABEL_BOOST = 1.5;

/** A candidate row as the rerank reads it. */
export interface RerankInput {
  rowid: number;
  /** Tokens in the text, derived terms and context columns, as FTS5 counted them. */
  lengths: [number, number, number];
  path: string;
  startLine: number;
  chunkId: string;
  text: string;
  terms: string;
  context: string;
  view: number;
}

export interface Reranked<Row extends RerankInput> {
  row: Row;
  score: number;
  /** The query's own words the chunk's text holds (not its neighbours'). */
  matchedTerms: string[];
}

/** What the rerank asks of the index: its size and, for the candidates, document frequencies and order. */
export interface RankStats extends CorpusStats {
  /** How many chunks hold each stem. */
  docs(stems: readonly string[]): Map<string, number>;
  /** The row of the chunk right after each given chunk in its file, when there is one. */
  following(rowids: readonly number[]): Map<number, number>;
}

/** A candidate read for the query: per term, its count in each field. */
interface Matched<Row extends RerankInput> {
  row: Row;
  counts: (readonly number[] | undefined)[];
}

interface Scored<Row extends RerankInput> extends Reranked<Row> {
  own: boolean;
  /** LABEL_BOOST when the chunk's leading label names a query word, else 1. */
  factor: number;
}

function matchRow<Row extends RerankInput>(
  row: Row,
  terms: readonly PlannedTerm[],
  query: QueryStems,
): Matched<Row> {
  const fields = [row.text, row.terms, row.context].map((text) => readField(text, query));
  const counts = terms.map((term) => {
    const found = fields.map((f) => frequency(term, f));
    return found.some((count) => count > 0) ? found : undefined;
  });
  return { row, counts };
}

/**
 * FTS5's idf, never below a millionth (a term in most chunks still counts
 * a little); a phrase counts as often as its rarest word. Looked up only
 * for the terms some candidate holds.
 */
function idfs<Row extends RerankInput>(
  terms: readonly PlannedTerm[],
  matches: readonly Matched<Row>[],
  stats: RankStats,
): number[] {
  const held = terms.map((_, t) => matches.some((m) => m.counts[t]));
  const docs = stats.docs([
    ...new Set(terms.filter((_, t) => held[t]).flatMap((term) => term.stems)),
  ]);
  return terms.map((term, t) => {
    if (!held[t]) return 0;
    const n = Math.min(...term.stems.map((stem) => docs.get(stem) ?? 0));
    return Math.max(1e-6, Math.log((stats.rows - n + 0.5) / (n + 0.5)));
  });
}

/** BM25F: each field's count at its weight over its own length normalization, then one saturation. */
function scoreRow<Row extends RerankInput>(
  match: Matched<Row>,
  terms: readonly PlannedTerm[],
  idfs: readonly number[],
  averages: readonly number[],
): Scored<Row> {
  const norms = match.row.lengths.map(
    (length, i) => 1 - FIELD_B[i]! + (FIELD_B[i]! * length) / averages[i]!,
  );
  let score = 0;
  let own = false;
  const matched = new Set<string>();
  terms.forEach((term, t) => {
    const counts = match.counts[t];
    if (!counts) return;
    const tf = counts.reduce((sum, count, i) => sum + (count * FIELD_WEIGHTS[i]!) / norms[i]!, 0);
    score += term.weight * idfs[t]! * ((tf * (K1 + 1)) / (tf + K1));
    if (counts[0]! + counts[1]! > 0) {
      own = true;
      if (term.own) matched.add(term.words.join(' '));
    }
  });
  let factor = 1;
  if (score > 0) {
    const label = labelStems(match.row.text);
    const named = terms.some((t) => t.own && t.stems.length === 1 && label.includes(t.stems[0]!));
    if (named) factor = LABEL_BOOST;
  }
  return { row: match.row, score, own, factor, matchedTerms: [...matched] };
}

/**
 * A chunk right after a candidate that asks (its text ends with `?`)
 * gains ANSWER_WEIGHT of that question's score: a reply is about what it
 * was asked, in words the question used (measured on LoCoMo, where the
 * reply often holds the answer but not the asker's words).
 */
function creditAnswers<Row extends RerankInput>(scored: Scored<Row>[], stats: RankStats): void {
  const questions = scored.filter((s) => asks(s.row.text));
  if (questions.length === 0) return;
  const after = stats.following(questions.map((q) => q.row.rowid));
  const gains = new Map<number, number>();
  for (const question of questions) {
    const answer = after.get(question.row.rowid);
    if (answer !== undefined) {
      gains.set(answer, (gains.get(answer) ?? 0) + ANSWER_WEIGHT * question.score);
    }
  }
  for (const s of scored) s.score += gains.get(s.row.rowid) ?? 0;
}

/** Each file's share: the sum of its best FILE_CANDIDATES scores, over the best file's. */
function fileShares<Row extends RerankInput>(scored: readonly Scored<Row>[]): Map<string, number> {
  const byFile = new Map<string, number[]>();
  for (const s of scored) byFile.set(s.row.path, [...(byFile.get(s.row.path) ?? []), s.score]);
  const sums = new Map<string, number>();
  for (const [path, scores] of byFile) {
    const best = scores.sort((a, b) => b - a).slice(0, FILE_CANDIDATES);
    sums.set(
      path,
      best.reduce((sum, score) => sum + score, 0),
    );
  }
  const top = Math.max(0, ...sums.values());
  for (const [path, sum] of sums) sums.set(path, top > 0 ? sum / top : 0);
  return sums;
}

function byRank(a: Scored<RerankInput>, b: Scored<RerankInput>): number {
  return (
    tier(a) - tier(b) ||
    b.score - a.score ||
    compareCodeUnits(a.row.path, b.row.path) ||
    a.row.startLine - b.row.startLine ||
    compareCodeUnits(a.row.chunkId, b.row.chunkId)
  );
}

/** 0: matches in its own text; 1: only through its neighbours; 2: a view. */
function tier(scored: Scored<RerankInput>): number {
  if (scored.row.view) return 2;
  return scored.own ? 0 : 1;
}

/**
 * Ranks candidates: BM25F over the chunk's text, its derived terms and its
 * neighbours' context (each term at its own weight), plus a share of the
 * question a chunk answers, scaled by the best candidate and blended with
 * its file's share, then ordered so that no chunk matching only through
 * its neighbours outranks one whose own text matches, and no view
 * outranks either. Scores fall as the ranks do and are relative to the
 * best hit (1): comparable within one query only.
 */
export function rerank<Row extends RerankInput>(
  rows: readonly Row[],
  terms: readonly PlannedTerm[],
  stats: RankStats,
): Reranked<Row>[] {
  const query = queryStems(terms);
  const matches = rows.map((row) => matchRow(row, terms, query));
  const weights = idfs(terms, matches, stats);
  const scored = matches
    .map((match) => scoreRow(match, terms, weights, stats.columnAverages))
    .filter((s) => s.score > 0);
  creditAnswers(scored, stats);
  const best = Math.max(0, ...scored.map((s) => s.score));
  const files = fileShares(scored);
  for (const s of scored) {
    s.score = (s.score / best + FILE_WEIGHT * files.get(s.row.path)!) * s.factor;
  }
  scored.sort(byRank);
  const top = scored[0]?.score ?? 1;
  let ceiling = Number.POSITIVE_INFINITY;
  let level = 0;
  return scored.map((s) => {
    // Each lower tier starts just below the last score of the one above.
    if (tier(s) > level) ceiling *= TIER_STEP;
    level = tier(s);
    ceiling = Math.min(s.score, ceiling);
    return { row: s.row, score: ceiling / top, matchedTerms: s.matchedTerms };
  });
}

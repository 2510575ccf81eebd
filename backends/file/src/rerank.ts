import { compareCodeUnits, wordRuns } from '@cairn/core';
import { CONTEXT_WEIGHT } from './chunk-context';
import type { CorpusStats } from './corpus-stats';
import { type PlannedTerm, stemOf } from './query-plan';

/*
 * The second stage of keyword search: FTS5 finds the candidates, this
 * ranks them with everything FTS5's bm25 cannot weigh (docs/SEARCH.md,
 * "Ranking"): each term's own weight (expansions weigh less than the
 * query's words), the file a chunk sits in, the label it opens with, and
 * which chunks match only through their neighbours or are views.
 */

/** BM25's term-frequency saturation and length normalization, as FTS5's bm25. */
const K1 = 1.2;
const B = 0.75;
/** The derived forms (camelCase parts, joined compounds) count as the chunk's own words. */
const TERMS_WEIGHT = 1;
/** Weight of the chunk's file (the sum of its candidates' scores, scaled by the best file's) beside its own. */
export const FILE_WEIGHT = 0.3;
/** A lower tier's best score as a share of the higher tier's last (see `rerank`). */
const TIER_STEP = 0.99;
/** A chunk whose leading label (`Melanie:`, `Decision:`) names a query word. */
export const LABEL_BOOST = 1.5;

/** A candidate row as the rerank reads it. */
export interface RerankInput {
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

/** The corpus size and, asked for the stems some candidate holds, their document frequencies. */
export interface RankStats extends CorpusStats {
  docs(stems: readonly string[]): Map<string, number>;
}

/** A field of a candidate: its length in tokens and where the query's stems occur in it. */
interface Field {
  length: number;
  /** Character offset of a matching token -> its stem and where it ends. */
  at: Map<number, { stem: string; end: number }>;
  /** Stem -> how many times it occurs. */
  counts: Map<string, number>;
  text: string;
}

const ALNUM = /[\p{L}\p{N}]/u;

function isAlnum(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  }
  return !Number.isNaN(code) && ALNUM.test(text[at]!);
}

/** Lowercase, diacritics removed: what FTS5's unicode61 tokenizer compares. */
function folded(text: string): string {
  const lower = text.toLowerCase();
  return /[^\0-\x7f]/.test(lower) ? lower.normalize('NFKD').replace(/\p{M}/gu, '') : lower;
}

/**
 * Finds the query's stems in a field without cutting all of it into
 * tokens: each stem's first letters are searched for, and only the tokens
 * found there are stemmed. `length` comes from FTS5's own count.
 */
function readField(raw: string, length: number, prefixes: Set<string>, wanted: Set<string>): Field {
  const text = folded(raw);
  const found: Field = { length, at: new Map(), counts: new Map(), text };
  for (const prefix of prefixes) {
    for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + 1)) {
      if (at > 0 && isAlnum(text, at - 1)) continue;
      let end = at + prefix.length;
      while (end < text.length && isAlnum(text, end)) end += 1;
      const stem = stemOf(text.slice(at, end));
      if (!wanted.has(stem) || found.at.has(at)) continue;
      found.at.set(at, { stem, end });
      found.counts.set(stem, (found.counts.get(stem) ?? 0) + 1);
    }
  }
  return found;
}

/** The offset of the token after the one ending at `end`. */
function nextToken(text: string, end: number): number {
  let at = end;
  while (at < text.length && !isAlnum(text, at)) at += 1;
  return at;
}

/** How often a term occurs in a field: a word's stem, or a phrase's stems in a row. */
function frequency(term: PlannedTerm, f: Field): number {
  const [first, ...rest] = term.stems;
  if (rest.length === 0) return f.counts.get(first!) ?? 0;
  if (!f.counts.has(first!)) return 0;
  let count = 0;
  for (const [start, token] of f.at) {
    if (token.stem !== first) continue;
    let end = token.end;
    let whole = true;
    for (const next of rest) {
      const found = f.at.get(nextToken(f.text, end));
      if (found?.stem !== next) {
        whole = false;
        break;
      }
      end = found.end;
    }
    if (whole && start >= 0) count += 1;
  }
  return count;
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

const LABEL = /^(?:\[[^\]\n]{0,80}\]\s*)?([A-Za-z][\w .'-]{0,40}):\s/;

/** The words of a chunk's leading label (`Melanie:` after an optional `[date]`), if it has one of 1-3 words. */
function labelStems(text: string): string[] {
  const label = LABEL.exec(text)?.[1];
  if (!label) return [];
  const words = wordRuns(label.toLowerCase());
  return words.length <= 3 ? words.map(stemOf) : [];
}

interface Scored<Row extends RerankInput> extends Reranked<Row> {
  own: boolean;
  /** LABEL_BOOST when the chunk's leading label names a query word, else 1. */
  factor: number;
}

/** The query's stems, and their first three letters (a token that shares none is not stemmed). */
interface QueryStems {
  prefixes: Set<string>;
  wanted: Set<string>;
}

const WEIGHTS = [1, TERMS_WEIGHT, CONTEXT_WEIGHT];

/** A candidate read for the query: its length and, per term, its count in each field. */
interface Matched<Row extends RerankInput> {
  row: Row;
  length: number;
  counts: (readonly number[] | undefined)[];
}

function matchRow<Row extends RerankInput>(
  row: Row,
  terms: readonly PlannedTerm[],
  query: QueryStems,
): Matched<Row> {
  const fields = [row.text, row.terms, row.context].map((text, i) =>
    readField(text, row.lengths[i]!, query.prefixes, query.wanted),
  );
  const counts = terms.map((term) => {
    const found = fields.map((f) => frequency(term, f));
    return found.some((count) => count > 0) ? found : undefined;
  });
  return { row, length: fields.reduce((sum, f) => sum + f.length, 0), counts };
}

function scoreRow<Row extends RerankInput>(
  match: Matched<Row>,
  terms: readonly PlannedTerm[],
  idfs: readonly number[],
  averageLength: number,
): Scored<Row> {
  const norm = K1 * (1 - B + (B * match.length) / averageLength);
  let score = 0;
  let own = false;
  const matched = new Set<string>();
  terms.forEach((term, t) => {
    const counts = match.counts[t];
    if (!counts) return;
    const tf = counts.reduce((sum, count, i) => sum + count * WEIGHTS[i]!, 0);
    score += term.weight * idfs[t]! * ((tf * (K1 + 1)) / (tf + norm));
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
 * Ranks candidates: BM25 over the chunk's text, its derived terms and its
 * neighbours' context (each term at its own weight), scaled by the best
 * candidate and blended with its file's share, then ordered so that no
 * chunk matching only through its neighbours outranks one whose own text
 * matches, and no view outranks either. Scores fall as the ranks do and
 * are relative to the best hit (1): comparable within one query only.
 */
export function rerank<Row extends RerankInput>(
  rows: readonly Row[],
  terms: readonly PlannedTerm[],
  stats: RankStats,
): Reranked<Row>[] {
  const wanted = new Set(terms.flatMap((term) => term.stems));
  const query = { wanted, prefixes: new Set([...wanted].map((stem) => stem.slice(0, 3))) };
  const matches = rows.map((row) => matchRow(row, terms, query));
  const weights = idfs(terms, matches, stats);
  const scored = matches
    .map((match) => scoreRow(match, terms, weights, stats.averageLength))
    .filter((s) => s.score > 0);
  const best = Math.max(0, ...scored.map((s) => s.score));
  const files = new Map<string, number>();
  for (const s of scored) files.set(s.row.path, (files.get(s.row.path) ?? 0) + s.score);
  const bestFile = Math.max(0, ...files.values());
  for (const s of scored) {
    const file = bestFile > 0 ? files.get(s.row.path)! / bestFile : 0;
    s.score = (s.score / best + FILE_WEIGHT * file) * s.factor;
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

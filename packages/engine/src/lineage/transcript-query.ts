import { wordRuns } from '@cairn/core';
import type { SqliteDatabase } from './lineage-database';

/** More terms only slow the OR query down without changing the top hits. */
const MAX_QUERY_TERMS = 32;

/** Words that match nearly every entry: they slow the OR query down and rank nothing. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in ' +
    'into is it its me my no not of on or our please so that the their them then there these ' +
    'this to us was we were what when where which who why will with would you your'
  ).split(' '),
);

/** The query's distinct terms, lowercased, without stopwords (unless nothing else is left). */
export function queryTerms(query: string): string[] {
  const terms = [...new Set(wordRuns(query.toLowerCase()))];
  const telling = terms.filter((term) => !STOPWORDS.has(term) && term.length > 1);
  return (telling.length > 0 ? telling : terms).slice(0, MAX_QUERY_TERMS);
}

/** An FTS5 MATCH expression: every term quoted (never read as an operator) and OR-ed. */
export function buildFtsQuery(query: string): string | undefined {
  const terms = queryTerms(query);
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term}"`).join(' OR ');
}

/**
 * Past this many transcript entries, a query term that occurs in more than
 * `COMMON_SHARE` of them is not asked for when a rarer one is. A word such
 * as `project` or `team` matches most entries of a year of history: asking
 * for it reads tens of thousands of rows (about 95 ms a prompt on the
 * lived-in bench project, against 4 ms without it) to rank by a word that
 * weighs almost nothing. Below it every term is asked for.
 */
export const SELECTIVE_FROM_ENTRIES = 1000;
export const COMMON_SHARE = 0.2;

const VOCAB_TABLE = 'temp.cairn_transcript_vocab';

/** A term to ask the index for, and its weight: how rare it is among the entries. */
export interface WeightedTerm {
  term: string;
  /** The FTS5 MATCH expression of the term alone (quoted: never read as an operator). */
  match: string;
  weight: number;
}

/**
 * Entries holding each term. The index keeps no term counts per entry
 * (`detail = none`), so its own BM25 rank is 0 for every row; the ranking
 * is Cairn's (transcript-ranking.ts), weighed by these counts. The FTS5
 * vocabulary (a temp table of this connection: nothing on disk) gives them
 * for a term as the index stems it; a query word in another form
 * (`deploying` for `deploy`) is counted through the index itself.
 */
function documentCounts(db: SqliteDatabase, terms: readonly string[]): Map<string, number> {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${VOCAB_TABLE} USING fts5vocab(main, transcript_entries_fts, row)`,
  );
  const fromVocab = db.prepare(`SELECT doc FROM ${VOCAB_TABLE} WHERE term = ?`);
  const fromIndex = db.prepare(
    'SELECT count(*) AS doc FROM transcript_entries_fts WHERE transcript_entries_fts MATCH ?',
  );
  const count = (term: string): number => {
    const known = fromVocab.get(term) as { doc: number } | undefined;
    return known?.doc ?? (fromIndex.get(`"${term}"`) as { doc: number }).doc;
  };
  return new Map(terms.map((term) => [term, count(term)]));
}

/**
 * The query's terms worth asking the index for, weighed by rarity: on a
 * large history those most entries do not hold (or the rarest one when
 * all are common); terms no entry holds are left out.
 */
export function weightedTerms(db: SqliteDatabase, query: string): WeightedTerm[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const newest = db.prepare('SELECT max(id) AS id FROM transcript_entries').get() as {
    id: number | null;
  };
  const entries = Math.max(1, newest.id ?? 0);
  const docs = documentCounts(db, terms);
  const held = terms.filter((term) => docs.get(term)! > 0);
  let asked = held;
  if (entries >= SELECTIVE_FROM_ENTRIES && held.length > 1) {
    const uncommon = held.filter((term) => docs.get(term)! <= entries * COMMON_SHARE);
    asked = uncommon.length > 0 ? uncommon : [rarest(held, docs)];
  }
  return asked.map((term) => ({
    term,
    match: `"${term}"`,
    weight: Math.log(1 + entries / docs.get(term)!),
  }));
}

function rarest(terms: readonly string[], docs: ReadonlyMap<string, number>): string {
  return terms.reduce((best, term) => (docs.get(term)! < docs.get(best)! ? term : best));
}

import { planCandidates, rowsByRank } from './chunk-candidates';
import type { ChunkHit, ChunkQuery, ChunkRow, RankedId } from './chunk-query';
import { recordOfRow } from './chunk-record';
import { columnLengths, corpusStats } from './corpus-stats';
import type { IndexStore } from './index-store';
import { PART_WEIGHT, type PlannedTerm } from './query-plan';
import { rerank } from './rerank';
import { docCounts, informativeTerms } from './term-pruning';

export { MIN_CANDIDATES } from './chunk-candidates';
export type { ChunkHit, ChunkQuery, FilterColumn, RankedId } from './chunk-query';

function toHit(row: ChunkRow, score = -row.rank, matchedTerms?: string[]): ChunkHit {
  const record = recordOfRow(row);
  return {
    rowid: row.rowid,
    chunkId: row.chunkId,
    kind: row.kind,
    path: row.path,
    startLine: row.startLine,
    endLine: row.endLine,
    text: row.text,
    ...(row.memoryId ? { memoryId: row.memoryId } : {}),
    ...(row.category ? { category: row.category } : {}),
    ...(row.review ? { review: row.review } : {}),
    ...(row.createdAt ? { createdAt: row.createdAt } : {}),
    ...(record ? { record } : {}),
    score: Number(score.toPrecision(6)),
    ...(matchedTerms ? { matchedTerms } : {}),
  };
}

/**
 * The plan without the WordNet synonyms of words the index holds: a
 * general-English synonym bridges a word the notes do not use, and only
 * adds noise (and cost) beside one they do.
 */
function bridgingTerms(store: IndexStore, terms: PlannedTerm[]): PlannedTerm[] {
  const of = [...new Set(terms.flatMap((term) => (term.of ? [term.of] : [])))];
  if (of.length === 0) return terms;
  const held = docCounts(store, of);
  return terms.filter((term) => !term.of || (held.get(term.of) ?? 0) === 0);
}

/**
 * Keyword search over one pool: FTS5 finds the candidates (very common
 * words left out of the MATCH when rarer ones occur), the rerank orders
 * them with every term at its weight (rerank.ts). Ties are broken by
 * location, so equal indexes always answer in the same order.
 */
export function queryChunks(store: IndexStore, query: ChunkQuery): ChunkHit[] {
  const terms = bridgingTerms(store, query.plan?.terms ?? []);
  if (terms.length === 0) return [];
  const informative = informativeTerms(store, terms);
  let rows: ChunkRow[] = [];
  // A query of very common words says little: its expansions would only add to the cost.
  const searched = informative.commonOnly
    ? informative.terms.filter((term) => term.own || term.weight >= PART_WEIGHT)
    : informative.terms;
  if (informative.commonOnly) {
    const from = recentWindowStart(store);
    if (from !== undefined) rows = planCandidates(store, query, searched, from);
  }
  if (rows.length < query.limit) rows = planCandidates(store, query, searched, 0);
  if (rows.length === 0) return [];
  const stats = {
    ...corpusStats(store),
    docs: (stems: readonly string[]) => docCounts(store, stems),
    following: (rowids: readonly number[]) => followingChunks(store, rowids),
  };
  const lengths = columnLengths(
    store,
    rows.map((row) => row.rowid),
  );
  const inputs = rows.map((row) => ({ ...row, lengths: lengths.get(row.rowid) ?? [0, 0, 0] }));
  return rerank(inputs, terms, stats)
    .slice(0, query.limit)
    .map((ranked) => toHit(ranked.row, ranked.score, ranked.matchedTerms));
}

/** The row of the chunk right after each given chunk in its file (by start line), when there is one. */
function followingChunks(store: IndexStore, rowids: readonly number[]): Map<number, number> {
  if (rowids.length === 0) return new Map();
  const rows = store
    .query(
      `SELECT c.rowid AS id, (
         SELECT n.rowid FROM chunks n
         WHERE n.pool = c.pool AND n.path = c.path AND n.start_line > c.start_line
         ORDER BY n.start_line LIMIT 1
       ) AS next
       FROM chunks c WHERE c.rowid IN (${rowids.map(() => '?').join(', ')})`,
    )
    .all(...rowids) as { id: number; next: number | null }[];
  return new Map(rows.flatMap((row) => (row.next === null ? [] : [[row.id, row.next] as const])));
}

/**
 * How many of the newest chunks a query of only very common words ranks
 * first. Such words are in most chunks (their idf is near nothing), so
 * ranking them reads most of the index for an order that says little;
 * among the chunks of the files changed last it costs a fraction. When
 * those give fewer hits than asked (a pool indexed long ago), the whole
 * index is ranked.
 */
export const COMMON_QUERY_WINDOW = 2000;

/** The lowest rowid of the newest `COMMON_QUERY_WINDOW` chunks (a file's new version gets new rows). */
function recentWindowStart(store: IndexStore): number | undefined {
  const row = store
    .query('SELECT rowid FROM chunks ORDER BY rowid DESC LIMIT 1 OFFSET ?')
    .get(COMMON_QUERY_WINDOW - 1) as { rowid: number } | undefined;
  return row?.rowid;
}

/**
 * The chunks of already-ranked rows (e.g. nearest vectors) that pass the
 * query's filters, best first, at most `query.limit`; `score` is `-rank`.
 */
export function chunksByRank(store: IndexStore, query: ChunkQuery, ranked: RankedId[]): ChunkHit[] {
  return rowsByRank(store, query, ranked)
    .slice(0, query.limit)
    .map((row) => toHit(row));
}

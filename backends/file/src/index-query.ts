import { compareCodeUnits, type MemoryIndexFilters, type MemoryRecordMeta } from '@cairn/core';
import { CHUNK_FILTER_COLUMNS } from '@cairn/index-kit';
import { CONTEXT_WEIGHT } from './chunk-context';
import type {
  ChunkHit,
  ChunkQuery,
  ChunkRow,
  FilterColumn,
  RankedId,
  RecordColumns,
} from './chunk-query';
import { columnLengths, corpusStats, docCounts, informativeTerms } from './corpus-stats';
import type { IndexStore } from './index-store';
import { buildFtsQuery, PART_WEIGHT, type PlannedTerm } from './query-plan';
import { rerank } from './rerank';

export type { ChunkHit, ChunkQuery, FilterColumn, RankedId } from './chunk-query';

/*
 * Keyword search over one pool of an index file: the index filters as chunk
 * columns and SQL conditions, the candidates FTS5 finds, their rerank, the hits.
 */

/** Index filter fields the chunk table holds as columns (the partition's two as well). */
const FILTER_COLUMNS: Record<string, FilterColumn> = {
  ...CHUNK_FILTER_COLUMNS,
  namespace_id: 'namespace_id',
  repo: 'repo',
};

/** The filters as a chunk query; what has no column is checked on each hit (`rest`). */
export function chunkQueryOf(filters: MemoryIndexFilters) {
  const oneOf: [FilterColumn, string[]][] = [];
  const rest: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(filters.oneOf ?? {})) {
    if (FILTER_COLUMNS[key]) oneOf.push([FILTER_COLUMNS[key], values]);
    else if (key !== 'poolId' && key !== 'tier') rest[key] = values;
  }
  const query: Omit<ChunkQuery, 'pool' | 'terms' | 'limit'> = {
    oneOf,
    ...(filters.excludeDeprecated ? { excludeDeprecated: true } : {}),
    ...(filters.sinceMs !== undefined ? { sinceMs: filters.sinceMs } : {}),
    ...(filters.untilMs !== undefined ? { untilMs: filters.untilMs } : {}),
    ...(filters.pathPrefix ? { pathPrefix: filters.pathPrefix } : {}),
  };
  return { query, rest: Object.keys(rest).length > 0 ? { oneOf: rest } : undefined };
}

/** A record's metadata back from its columns (markdown chunks have no namespace). */
export function recordOfRow(row: RecordColumns): MemoryRecordMeta | undefined {
  if (row.recordKind !== 'run_digest' && row.recordKind !== 'fix_pattern') return undefined;
  return {
    kind: row.recordKind,
    trustClass: row.trustClass as MemoryRecordMeta['trustClass'],
    namespace: row.namespace ?? '',
    repo: row.repo ?? '',
    createdAt: row.createdAt ?? '',
    ...(row.runRefKind && row.runRefId
      ? { runRef: { kind: row.runRefKind, id: row.runRefId } }
      : {}),
  };
}

/** Conditions on the chunk row (`c`), without the MATCH. */
function filterClause(query: ChunkQuery): { sql: string[]; params: unknown[] } {
  const sql = ['c.pool = ?'];
  const params: unknown[] = [query.pool];
  for (const [column, values] of query.oneOf ?? []) {
    sql.push(values.length === 0 ? '0' : `c.${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  }
  if (query.excludeDeprecated) sql.push("(c.review IS NULL OR c.review <> 'deprecated')");
  if (query.sinceMs !== undefined) {
    sql.push('c.created_ms >= ?');
    params.push(query.sinceMs);
  }
  if (query.untilMs !== undefined) {
    sql.push('c.created_ms < ?');
    params.push(query.untilMs);
  }
  if (query.pathPrefix) {
    // instr finds the first occurrence, so 1 means "starts with"; no LIKE escaping needed.
    sql.push('instr(c.path, ?) = 1');
    params.push(query.pathPrefix);
  }
  return { sql, params };
}

/**
 * bm25 over the FTS columns, to find candidates: the chunk's text and its
 * derived terms (weight 1) and its neighbours' context (CONTEXT_WEIGHT).
 */
const BM25 = `bm25(chunks_fts, 1.0, 1.0, ${CONTEXT_WEIGHT})`;

const COLUMNS = `c.rowid AS rowid, c.chunk_id AS chunkId, c.kind, c.path, c.start_line AS startLine,
  c.end_line AS endLine, c.text, c.terms, c.context, c.view, c.memory_id AS memoryId, c.category, c.review,
  c.created_at AS createdAt, c.record_kind AS recordKind, c.trust_class AS trustClass,
  c.namespace_id AS namespace, c.repo, c.run_ref_kind AS runRefKind, c.run_ref_id AS runRefId`;

/** Ranks and cuts first, then reads the text of the few rows kept, so the sort never carries text. */
function rankedRows(store: IndexStore, query: ChunkQuery, match: string, from = 0): ChunkRow[] {
  const filter = filterClause(query);
  const sql = `SELECT ${COLUMNS}, top.rank FROM (
      SELECT c.rowid AS id, ${BM25} AS rank, c.path AS p, c.start_line AS s, c.chunk_id AS k
      FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
      WHERE chunks_fts MATCH ? AND chunks_fts.rowid >= ? AND ${filter.sql.join(' AND ')}
      ORDER BY rank, p, s, k
      LIMIT ?
    ) AS top JOIN chunks c ON c.rowid = top.id
    ORDER BY top.rank, top.p, top.s, top.k`;
  return store.query(sql).all(match, from, ...filter.params, query.limit) as ChunkRow[];
}

/** Candidates each FTS query hands to the rerank: at least this many, or 5 per result wanted. */
export const MIN_CANDIDATES = 50;

/** The share of candidates the expansions alone bring (see planCandidates). */
const EXPANSION_CANDIDATES = 0.4;

function candidateCount(query: ChunkQuery, share = 1): number {
  return Math.ceil(Math.max(MIN_CANDIDATES, query.limit * 5) * share);
}

/**
 * The best candidates of one MATCH that pass the filters: ranked on the
 * FTS table alone (no join per matching row), then filtered; when the
 * filters leave fewer than asked of a cut list, ranked again with the
 * filters joined in.
 */
function candidateRows(
  store: IndexStore,
  query: ChunkQuery,
  match: string,
  from = 0,
  share = 1,
): ChunkRow[] {
  const want = candidateCount(query, share);
  const scored = store
    .query(
      // bm25() sorted by SQLite, not FTS5's `ORDER BY rank` sorter: about a third faster here.
      `SELECT rowid AS id, ${BM25} AS score FROM chunks_fts
       WHERE chunks_fts MATCH ? AND rowid >= ? ORDER BY score LIMIT ?`,
    )
    .all(match, from, want) as { id: number; score: number }[];
  const top: RankedId[] = scored.map((row) => ({ id: row.id, rank: row.score }));
  const rows = rowsByRank(store, query, top);
  if (top.length < want || rows.length >= query.limit) return rows;
  return rankedRows(store, { ...query, limit: want }, match, from);
}

/**
 * Reads the chunks of already-ranked ids that pass the filters, in rank
 * order (ties by path, line and chunk id, as in the full query).
 */
export function rowsByRank(store: IndexStore, query: ChunkQuery, ranked: RankedId[]): ChunkRow[] {
  if (ranked.length === 0) return [];
  const filter = filterClause(query);
  const rank = new Map(ranked.map((row) => [row.id, row.rank]));
  const rows = store
    .query(
      // NOT INDEXED: without it SQLite reads the pool through chunks_by_file
      // (every chunk of the pool) instead of looking the few ids up by rowid.
      `SELECT ${COLUMNS}, c.rowid AS id FROM chunks c NOT INDEXED
       WHERE c.rowid IN (${ranked.map(() => '?').join(', ')}) AND ${filter.sql.join(' AND ')}`,
    )
    .all(...ranked.map((row) => row.id), ...filter.params) as (ChunkRow & { id: number })[];
  return rows
    .map(({ id, ...row }) => ({ ...row, rank: rank.get(id)! }))
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        compareCodeUnits(a.path, b.path) ||
        a.startLine - b.startLine ||
        compareCodeUnits(a.chunkId, b.chunkId),
    );
}

/**
 * The candidates of a plan's terms: FTS5's best by bm25 for the query's own
 * words (and their parts), and fewer for its expansions alone (a chunk that
 * has both is found by the first), once each. Each MATCH reads every
 * chunk its terms are in: two smaller ones cost less than one of all.
 */
export function planCandidates(
  store: IndexStore,
  query: ChunkQuery,
  terms: PlannedTerm[],
  from: number,
): ChunkRow[] {
  const own = terms.filter((term) => term.own || term.weight >= PART_WEIGHT);
  const expanded = terms.filter((term) => !own.includes(term));
  const byId = new Map<number, ChunkRow>();
  const add = (match: string | undefined, share: number) => {
    if (!match) return;
    for (const row of candidateRows(store, query, match, from, share)) byId.set(row.rowid, row);
  };
  add(buildFtsQuery(own), 1);
  add(buildFtsQuery(expanded), EXPANSION_CANDIDATES);
  return [...byId.values()];
}

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

import { compareCodeUnits } from '@cairn/core';
import { CONTEXT_WEIGHT } from './chunk-context';
import type { ChunkQuery, ChunkRow, RankedId } from './chunk-query';
import { buildFtsQuery } from './fts-query';
import type { IndexStore } from './index-store';
import { PART_WEIGHT, type PlannedTerm } from './query-plan';

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

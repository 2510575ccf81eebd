import type { MemoryKind } from '@cairn/core';
import type { IndexStore } from './index-store';

/** Chunk columns a query may narrow with an `IN (...)` list. */
export type FilterColumn = 'path' | 'kind' | 'category' | 'review' | 'memory_id';

export interface ChunkQuery {
  pool: string;
  /** An FTS5 MATCH expression (see buildFtsQuery). */
  match: string;
  limit: number;
  /** Each column must equal one of the values; an empty list matches nothing. */
  oneOf?: [FilterColumn, string[]][];
  /** Leave out units reviewed as deprecated (RAW chunks have no review and stay). */
  excludeDeprecated?: boolean;
  /** Units created at or after / before these instants; RAW chunks have no date and drop out. */
  sinceMs?: number;
  untilMs?: number;
  pathPrefix?: string;
}

export interface ChunkHit {
  chunkId: string;
  kind: MemoryKind;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  memoryId?: string;
  category?: string;
  review?: string;
  createdAt?: string;
  /** Negated bm25: higher is better. */
  score: number;
}

interface ChunkRow {
  chunkId: string;
  kind: MemoryKind;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  memoryId: string | null;
  category: string | null;
  review: string | null;
  createdAt: string | null;
  rank: number;
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

const COLUMNS = `c.chunk_id AS chunkId, c.kind, c.path, c.start_line AS startLine,
  c.end_line AS endLine, c.text, c.memory_id AS memoryId, c.category, c.review,
  c.created_at AS createdAt`;

/** Ranks and cuts first, then reads the text of the few rows kept, so the sort never carries text. */
function rankedRows(store: IndexStore, query: ChunkQuery): ChunkRow[] {
  const filter = filterClause(query);
  const sql = `SELECT ${COLUMNS}, top.rank FROM (
      SELECT c.rowid AS id, bm25(chunks_fts) AS rank, c.path AS p, c.start_line AS s, c.chunk_id AS k
      FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid
      WHERE chunks_fts MATCH ? AND ${filter.sql.join(' AND ')}
      ORDER BY rank, p, s, k
      LIMIT ?
    ) AS top JOIN chunks c ON c.rowid = top.id
    ORDER BY top.rank, top.p, top.s, top.k`;
  return store.query(sql).all(query.match, ...filter.params, query.limit) as ChunkRow[];
}

/**
 * Full-text search over one pool, best first by bm25, ties broken by
 * location so equal indexes always answer in the same order.
 */
export function queryChunks(store: IndexStore, query: ChunkQuery): ChunkHit[] {
  const rows = rankedRows(store, query);
  return rows.map((row) => ({
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
    score: Number((-row.rank).toPrecision(6)),
  }));
}

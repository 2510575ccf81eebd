import { type MemoryChunk, recordKindOf, recordTrustOf } from '@cairn/core';
import { derivedTerms, relativeDateTerms } from '@cairn/index-kit';
import type { SqliteDatabase, SqliteStatement } from '@cairn/sqlite';
import { chunkContexts } from './chunk-context';
import { prepareSchema, recreateTables } from './index-schema';

/** What the index remembers about one source file. */
export interface IndexedFile {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** One file whose chunks are replaced. */
export interface FileUpdate extends IndexedFile {
  path: string;
  chunks: MemoryChunk[];
  /** Per chunk, whether it is a view Cairn rendered (index-kit's renderedViews); absent: none is. */
  views?: boolean[];
}

/** Every change one refresh makes to one pool, applied in one transaction. */
export interface PoolChanges {
  pool: string;
  /** Content unchanged, only size or mtime moved. */
  restat: (IndexedFile & { path: string })[];
  updates: FileUpdate[];
  removed: string[];
  /** Drop every table first (a rebuild). */
  reset?: boolean;
}

const MAX_CACHED_QUERIES = 64;

/**
 * The SQLite side of the index: one connection, prepared statements
 * cached, and the few writes a refresh needs.
 */
export class IndexStore {
  readonly db: SqliteDatabase;
  private readonly format: string;
  private readonly queries = new Map<string, SqliteStatement>();

  constructor(db: SqliteDatabase, format: string) {
    this.db = db;
    this.format = format;
    prepareSchema(db, format);
  }

  filesOf(pool: string): Map<string, IndexedFile> {
    const rows = this.query(SQL.filesOf).all(pool) as (IndexedFile & { path: string })[];
    return new Map(rows.map(({ path, ...file }) => [path, file]));
  }

  pools(): string[] {
    return this.query(SQL.pools).pluck().all() as string[];
  }

  /** Applies a refresh atomically; returns how many chunks were written. */
  apply(changes: PoolChanges): number {
    const write = this.db.transaction(() => {
      if (changes.reset) recreateTables(this.db, this.format);
      for (const file of changes.restat)
        this.query(SQL.restat).run(file.size, file.mtimeMs, changes.pool, file.path);
      for (const path of changes.removed) {
        this.query(SQL.deleteChunks).run(changes.pool, path);
        this.query(SQL.deleteFile).run(changes.pool, path);
      }
      let written = 0;
      for (const file of changes.updates) {
        this.replaceChunks(changes.pool, file);
        this.query(SQL.upsertFile).run(changes.pool, file.path, file.size, file.mtimeMs, file.hash);
        written += file.chunks.length;
      }
      return written;
    });
    return write.immediate();
  }

  /**
   * Writes the chunks of one re-chunked file, touching only rows that
   * changed: appending a unit inserts one chunk and updates the context of
   * the one before it, instead of re-indexing the whole file. Call inside
   * the apply transaction.
   */
  private replaceChunks(pool: string, file: FileUpdate): void {
    const stored = this.query(SQL.chunksOf).all(pool, file.path) as StoredChunk[];
    const rows = chunkRows(pool, file.chunks, file.views);
    const wanted = new Set(rows.map((row) => row.chunkId));
    for (const old of stored)
      if (!wanted.has(old.chunkId)) this.query(SQL.deleteChunk).run(old.rowid);
    const byId = new Map(stored.map((old) => [old.chunkId, old]));
    for (const row of rows) {
      const old = byId.get(row.chunkId);
      if (!old) this.query(SQL.insertChunk).run(row);
      else if (!sameRow(old, row)) this.query(SQL.updateChunk).run({ ...row, rowid: old.rowid });
    }
  }

  /** Forgets a whole pool (a folder no longer registered). */
  dropPool(pool: string): void {
    this.db.transaction(() => {
      this.query(SQL.deletePoolChunks).run(pool);
      this.query(SQL.deletePoolFiles).run(pool);
    })();
  }

  /** A prepared statement, cached by its text and prepared on first use. */
  query(sql: string): SqliteStatement {
    let statement = this.queries.get(sql);
    if (!statement) {
      if (this.queries.size >= MAX_CACHED_QUERIES) this.queries.clear();
      statement = this.db.prepare(sql);
      this.queries.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Chunk columns and the keys of their values in a ChunkRow. */
const ROW_COLUMNS = [
  ['chunk_id', 'chunkId'],
  ['pool', 'pool'],
  ['path', 'path'],
  ['kind', 'kind'],
  ['memory_id', 'memoryId'],
  ['category', 'category'],
  ['review', 'review'],
  ['created_at', 'createdAt'],
  ['created_ms', 'createdMs'],
  ['updated_at', 'updatedAt'],
  ['source', 'source'],
  ['record_kind', 'recordKind'],
  ['trust_class', 'trustClass'],
  ['namespace_id', 'namespace'],
  ['repo', 'repo'],
  ['run_ref_kind', 'runRefKind'],
  ['run_ref_id', 'runRefId'],
  ['start_line', 'startLine'],
  ['end_line', 'endLine'],
  ['text', 'text'],
  ['terms', 'terms'],
  ['context', 'context'],
  ['view', 'view'],
] as const;

/**
 * The fixed SQL of the index, prepared on first use through the statement
 * cache (`query`): a search that changes nothing compiles only its reads.
 */
const SQL = {
  filesOf: 'SELECT path, size, mtime_ms AS mtimeMs, hash FROM files WHERE pool = ? ORDER BY path',
  pools: 'SELECT DISTINCT pool FROM files',
  restat: 'UPDATE files SET size = ?, mtime_ms = ? WHERE pool = ? AND path = ?',
  upsertFile: `INSERT INTO files (pool, path, size, mtime_ms, hash) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (pool, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash`,
  deleteFile: 'DELETE FROM files WHERE pool = ? AND path = ?',
  deleteChunks: 'DELETE FROM chunks WHERE pool = ? AND path = ?',
  deletePoolFiles: 'DELETE FROM files WHERE pool = ?',
  deletePoolChunks: 'DELETE FROM chunks WHERE pool = ?',
  chunksOf: `SELECT rowid, ${ROW_COLUMNS.map(([column, key]) => `${column} AS ${key}`).join(', ')}
       FROM chunks WHERE pool = ? AND path = ?`,
  deleteChunk: 'DELETE FROM chunks WHERE rowid = ?',
  updateChunk: `UPDATE chunks SET ${ROW_COLUMNS.map(([column, key]) => `${column} = @${key}`).join(', ')}
       WHERE rowid = @rowid`,
  insertChunk: `INSERT INTO chunks (${ROW_COLUMNS.map(([column]) => column).join(', ')})
       VALUES (${ROW_COLUMNS.map(([, key]) => `@${key}`).join(', ')})`,
} as const;

type ChunkRow = ReturnType<typeof chunkRow>;
type StoredChunk = ChunkRow & { rowid: number };

function sameRow(stored: StoredChunk, row: ChunkRow): boolean {
  return ROW_COLUMNS.every(([, key]) => stored[key] === row[key]);
}

/** The rows of one file's chunks, each with its neighbours' text as context. */
function chunkRows(
  pool: string,
  chunks: readonly MemoryChunk[],
  views: readonly boolean[] = [],
): ChunkRow[] {
  const contexts = chunkContexts(chunks);
  return chunks.map((chunk, i) => chunkRow(pool, chunk, contexts[i]!, views[i] === true));
}

/** The derived terms of a chunk: its code-aware forms and the dates of its relative time expressions. */
function chunkTerms(chunk: MemoryChunk): string {
  const dates = relativeDateTerms(chunk.text, chunk.createdAt);
  const code = derivedTerms(chunk.text);
  return dates === '' ? code : code === '' ? dates : `${code} ${dates}`;
}

function chunkRow(pool: string, chunk: MemoryChunk, context: string, view: boolean) {
  return {
    chunkId: chunk.id,
    pool,
    path: chunk.path,
    kind: chunk.kind,
    memoryId: chunk.memoryId ?? null,
    category: chunk.category ?? null,
    review: chunk.review ?? null,
    createdAt: chunk.createdAt ?? null,
    createdMs: chunk.createdAt ? Date.parse(chunk.createdAt) : null,
    updatedAt: chunk.updatedAt ?? null,
    source: chunk.source ?? null,
    recordKind: recordKindOf(chunk),
    trustClass: recordTrustOf(chunk),
    namespace: chunk.record?.namespace ?? null,
    repo: chunk.record?.repo ?? null,
    runRefKind: chunk.record?.runRef?.kind ?? null,
    runRefId: chunk.record?.runRef?.id ?? null,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    text: chunk.text,
    terms: chunkTerms(chunk),
    context,
    view: view ? 1 : 0,
  };
}

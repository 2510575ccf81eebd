import type { MemoryChunk } from '@cairn/core';
import { chunkContexts } from './chunk-context';
import { prepareSchema, recreateTables } from './index-schema';
import type { SqliteDatabase, SqliteStatement } from './sqlite-driver';

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
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(db: SqliteDatabase, format: string) {
    this.db = db;
    this.format = format;
    prepareSchema(db, format);
    this.statements = prepareStatements(db);
  }

  filesOf(pool: string): Map<string, IndexedFile> {
    const rows = this.statements.filesOf.all(pool) as (IndexedFile & { path: string })[];
    return new Map(rows.map(({ path, ...file }) => [path, file]));
  }

  pools(): string[] {
    return this.statements.pools.all() as string[];
  }

  /** Applies a refresh atomically; returns how many chunks were written. */
  apply(changes: PoolChanges): number {
    const s = this.statements;
    const write = this.db.transaction(() => {
      if (changes.reset) recreateTables(this.db, this.format);
      for (const file of changes.restat)
        s.restat.run(file.size, file.mtimeMs, changes.pool, file.path);
      for (const path of changes.removed) {
        s.deleteChunks.run(changes.pool, path);
        s.deleteFile.run(changes.pool, path);
      }
      let written = 0;
      for (const file of changes.updates) {
        this.replaceChunks(changes.pool, file);
        s.upsertFile.run(changes.pool, file.path, file.size, file.mtimeMs, file.hash);
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
    const s = this.statements;
    const stored = s.chunksOf.all(pool, file.path) as StoredChunk[];
    const rows = chunkRows(pool, file.chunks);
    const wanted = new Set(rows.map((row) => row.chunkId));
    for (const old of stored) if (!wanted.has(old.chunkId)) s.deleteChunk.run(old.rowid);
    const byId = new Map(stored.map((old) => [old.chunkId, old]));
    for (const row of rows) {
      const old = byId.get(row.chunkId);
      if (!old) s.insertChunk.run(row);
      else if (!sameRow(old, row)) s.updateChunk.run({ ...row, rowid: old.rowid });
    }
  }

  /** Forgets a whole pool (a folder no longer registered). */
  dropPool(pool: string): void {
    this.db.transaction(() => {
      this.statements.deletePoolChunks.run(pool);
      this.statements.deletePoolFiles.run(pool);
    })();
  }

  /** A prepared statement for dynamic SQL, cached by its text. */
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

/**
 * Statements prepared on first use: opening the index for a search that
 * changes nothing then compiles only the reads it runs.
 */
function lazyStatements<T extends Record<string, () => unknown>>(
  makers: T,
): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const statements = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const [key, make] of Object.entries(makers)) {
    let prepared: unknown;
    Object.defineProperty(statements, key, {
      enumerable: true,
      get: () => {
        prepared ??= make();
        return prepared;
      },
    });
  }
  return statements;
}

function prepareStatements(db: SqliteDatabase) {
  return lazyStatements({
    filesOf: () =>
      db.prepare(
        'SELECT path, size, mtime_ms AS mtimeMs, hash FROM files WHERE pool = ? ORDER BY path',
      ),
    pools: () => db.prepare('SELECT DISTINCT pool FROM files').pluck(),
    restat: () => db.prepare('UPDATE files SET size = ?, mtime_ms = ? WHERE pool = ? AND path = ?'),
    upsertFile: () =>
      db.prepare(
        `INSERT INTO files (pool, path, size, mtime_ms, hash) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (pool, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash`,
      ),
    deleteFile: () => db.prepare('DELETE FROM files WHERE pool = ? AND path = ?'),
    deleteChunks: () => db.prepare('DELETE FROM chunks WHERE pool = ? AND path = ?'),
    deletePoolFiles: () => db.prepare('DELETE FROM files WHERE pool = ?'),
    deletePoolChunks: () => db.prepare('DELETE FROM chunks WHERE pool = ?'),
    chunksOf: () =>
      db.prepare(
        `SELECT rowid, ${ROW_COLUMNS.map(([column, key]) => `${column} AS ${key}`).join(', ')}
       FROM chunks WHERE pool = ? AND path = ?`,
      ),
    deleteChunk: () => db.prepare('DELETE FROM chunks WHERE rowid = ?'),
    updateChunk: () =>
      db.prepare(
        `UPDATE chunks SET ${ROW_COLUMNS.map(([column, key]) => `${column} = @${key}`).join(', ')}
       WHERE rowid = @rowid`,
      ),
    insertChunk: () =>
      db.prepare(
        `INSERT INTO chunks (chunk_id, pool, path, kind, memory_id, category, review, created_at,
         created_ms, updated_at, source, start_line, end_line, text, context)
       VALUES (@chunkId, @pool, @path, @kind, @memoryId, @category, @review, @createdAt,
         @createdMs, @updatedAt, @source, @startLine, @endLine, @text, @context)`,
      ),
  });
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
  ['start_line', 'startLine'],
  ['end_line', 'endLine'],
  ['text', 'text'],
  ['context', 'context'],
] as const;

type ChunkRow = ReturnType<typeof chunkRow>;
type StoredChunk = ChunkRow & { rowid: number };

function sameRow(stored: StoredChunk, row: ChunkRow): boolean {
  return ROW_COLUMNS.every(([, key]) => stored[key] === row[key]);
}

/** The rows of one file's chunks, each with its neighbours' text as context. */
function chunkRows(pool: string, chunks: readonly MemoryChunk[]): ChunkRow[] {
  const contexts = chunkContexts(chunks);
  return chunks.map((chunk, i) => chunkRow(pool, chunk, contexts[i]!));
}

function chunkRow(pool: string, chunk: MemoryChunk, context: string) {
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
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    text: chunk.text,
    context,
  };
}

import type { SqliteDatabase } from '@cairn/sqlite';

/**
 * Bump when the tables, the tokenizer or what goes into a chunk change: an
 * index with another version is dropped and rebuilt from the markdown.
 */
export const SEARCH_INDEX_SCHEMA_VERSION = 8;

const TABLES = `
CREATE TABLE files (
  pool TEXT NOT NULL,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (pool, path)
) WITHOUT ROWID;
CREATE TABLE chunks (
  rowid INTEGER PRIMARY KEY,
  chunk_id TEXT NOT NULL,
  pool TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('UNIT', 'RAW')),
  memory_id TEXT,
  category TEXT,
  review TEXT,
  created_at TEXT,
  created_ms INTEGER,
  updated_at TEXT,
  source TEXT,
  -- Seed 004 §6.2: doc | long_term_shadow | run_digest | fix_pattern, raw | derived | approved,
  -- and a task-history record's namespace, repo and run ref.
  record_kind TEXT NOT NULL DEFAULT 'doc',
  trust_class TEXT NOT NULL DEFAULT 'raw',
  namespace_id TEXT,
  repo TEXT,
  run_ref_kind TEXT,
  run_ref_id TEXT,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  text TEXT NOT NULL,
  -- Code-aware forms of the text (camelCase parts, joined compounds, versions: index-kit's derivedTerms)
  -- and the dates its relative time expressions stand for (relativeDateTerms).
  terms TEXT NOT NULL DEFAULT '',
  -- The end of the two chunks before and the start of the chunk after, same file (chunk-context.ts).
  context TEXT NOT NULL DEFAULT '',
  -- 1 for a view Cairn rendered (a managed region, a scaffold): ranked below its sources.
  view INTEGER NOT NULL DEFAULT 0,
  UNIQUE (pool, chunk_id)
);
CREATE INDEX chunks_by_file ON chunks (pool, path, start_line);
-- Float32 vectors, model = the embedderKey that made them; a chunk's vector
-- goes when the chunk goes, so a reused rowid never inherits a stale vector.
CREATE TABLE chunk_vectors (
  chunk_rowid INTEGER NOT NULL,
  model TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (chunk_rowid, model)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  text,
  terms,
  context,
  content = 'chunks',
  content_rowid = 'rowid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Document frequency per (stemmed) term, read to leave very common terms out of a query.
CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');
CREATE TRIGGER chunks_after_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts (rowid, text, terms, context)
    VALUES (new.rowid, new.text, new.terms, new.context);
END;
CREATE TRIGGER chunks_after_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text, terms, context)
    VALUES ('delete', old.rowid, old.text, old.terms, old.context);
  DELETE FROM chunk_vectors WHERE chunk_rowid = old.rowid;
END;
CREATE TRIGGER chunks_after_update AFTER UPDATE OF text, terms, context ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text, terms, context)
    VALUES ('delete', old.rowid, old.text, old.terms, old.context);
  INSERT INTO chunks_fts (rowid, text, terms, context)
    VALUES (new.rowid, new.text, new.terms, new.context);
  DELETE FROM chunk_vectors WHERE chunk_rowid = old.rowid;
END;
`;

const DROP = `
DROP TRIGGER IF EXISTS chunks_after_insert;
DROP TRIGGER IF EXISTS chunks_after_delete;
DROP TRIGGER IF EXISTS chunks_after_update;
DROP TABLE IF EXISTS chunks_vocab;
DROP TABLE IF EXISTS chunks_fts;
DROP TABLE IF EXISTS chunk_vectors;
DROP TABLE IF EXISTS chunks;
DROP TABLE IF EXISTS files;
`;

/** Drops and recreates every table; call inside a transaction. */
export function recreateTables(db: SqliteDatabase, format: string): void {
  db.exec(DROP);
  db.exec(TABLES);
  db.prepare(
    "INSERT INTO meta (key, value) VALUES ('format', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  ).run(format);
}

/**
 * Makes sure the tables match `format` (schema version plus chunking
 * options); anything else is derived data from an older build and is dropped.
 */
export function prepareSchema(db: SqliteDatabase, format: string): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const read = () =>
    db.prepare("SELECT value FROM meta WHERE key = 'format'").pluck().get() as string | undefined;
  if (read() === format) return;
  db.transaction(() => {
    // Another process may have upgraded it while we waited for the lock.
    if (read() !== format) recreateTables(db, format);
  }).immediate();
}

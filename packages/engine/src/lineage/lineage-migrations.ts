import { CairnError } from '@cairn/core';
import { type SqliteDatabase, writeTransaction } from './lineage-database';

/** One schema step. Versions are contiguous from 1; a shipped step is never edited. */
export interface LineageMigration {
  version: number;
  name: string;
  up(db: SqliteDatabase): void;
}

const appendOnly = (table: string, event: string) => `
CREATE TRIGGER ${table}_append_only_${event.split(' ')[0]!.toLowerCase()}
BEFORE ${event} ON ${table}
BEGIN SELECT RAISE(ABORT, 'lineage history is append-only: ${table}'); END;`;

const HISTORY_TABLES = `
CREATE TABLE transcripts (
  id INTEGER PRIMARY KEY,
  agent_id TEXT NOT NULL,
  session_key TEXT NOT NULL,
  harness TEXT,
  cwd TEXT,
  thread_key TEXT,
  started_at TEXT NOT NULL,
  UNIQUE (agent_id, session_key)
);
CREATE TABLE transcript_entries (
  id INTEGER PRIMARY KEY,
  transcript_id INTEGER NOT NULL REFERENCES transcripts (id),
  seq INTEGER NOT NULL CHECK (seq >= 1),
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
  text TEXT NOT NULL,
  tool_name TEXT,
  at TEXT NOT NULL,
  UNIQUE (transcript_id, seq)
);
CREATE TABLE temporal_nodes (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  kind TEXT NOT NULL
    CHECK (kind IN ('session_summary', 'compaction', 'condensed', 'run_digest')),
  thread_key TEXT NOT NULL,
  session_key TEXT,
  depth INTEGER NOT NULL CHECK (depth >= 0),
  start_at TEXT NOT NULL,
  end_at TEXT NOT NULL CHECK (end_at >= start_at),
  source TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX temporal_nodes_by_thread ON temporal_nodes (agent_id, thread_key, start_at);
CREATE INDEX temporal_nodes_by_session ON temporal_nodes (agent_id, session_key);
CREATE TABLE node_edges (
  parent_id TEXT NOT NULL REFERENCES temporal_nodes (id),
  child_id TEXT NOT NULL REFERENCES temporal_nodes (id),
  PRIMARY KEY (parent_id, child_id),
  CHECK (parent_id <> child_id)
) WITHOUT ROWID;
CREATE INDEX node_edges_by_child ON node_edges (child_id, parent_id);
CREATE TABLE node_links (
  node_id TEXT NOT NULL REFERENCES temporal_nodes (id),
  unit_id TEXT NOT NULL,
  PRIMARY KEY (node_id, unit_id)
) WITHOUT ROWID;
CREATE TABLE summary_retries (
  agent_id TEXT NOT NULL,
  session_key TEXT NOT NULL,
  attempts INTEGER NOT NULL CHECK (attempts >= 1),
  last_error TEXT NOT NULL,
  next_attempt_at TEXT NOT NULL,
  first_failed_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (agent_id, session_key)
) WITHOUT ROWID;
CREATE INDEX summary_retries_due ON summary_retries (agent_id, next_attempt_at);
CREATE TRIGGER transcripts_append_only_update
BEFORE UPDATE OF agent_id, session_key, started_at ON transcripts
BEGIN SELECT RAISE(ABORT, 'lineage history is append-only: transcripts'); END;
${appendOnly('transcripts', 'DELETE')}
${['transcript_entries', 'temporal_nodes', 'node_edges', 'node_links']
  .flatMap((table) => [appendOnly(table, 'UPDATE'), appendOnly(table, 'DELETE')])
  .join('\n')}
`;

/** Full-text search over entry text; backfills entries written before this step. */
const TRANSCRIPT_SEARCH = `
CREATE VIRTUAL TABLE transcript_entries_fts USING fts5(
  text,
  content = 'transcript_entries',
  content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER transcript_entries_fts_insert AFTER INSERT ON transcript_entries BEGIN
  INSERT INTO transcript_entries_fts (rowid, text) VALUES (new.id, new.text);
END;
INSERT INTO transcript_entries_fts (transcript_entries_fts) VALUES ('rebuild');
`;

/**
 * Long entries are stored compressed in `body` (transcript-repository.ts), so the
 * index can no longer read them from the table: it becomes contentless,
 * fed by the repository with each entry's full text, and is rebuilt here
 * from the entries written before this step (all stored whole). It keeps
 * no positions (`detail = none`): the transcript query is an OR of single
 * terms, and positions would double the index for phrase queries it never
 * runs. Without term counts FTS5's own BM25 ranks every row 0, so the
 * ranking is Cairn's: the summed rarity of the terms an entry holds
 * (transcript-ranking.ts).
 */
const ENTRY_BODIES = `
ALTER TABLE transcript_entries ADD COLUMN body BLOB;
DROP TRIGGER transcript_entries_fts_insert;
DROP TABLE transcript_entries_fts;
CREATE VIRTUAL TABLE transcript_entries_fts USING fts5(
  text,
  content = '',
  detail = none,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO transcript_entries_fts (rowid, text) SELECT id, text FROM transcript_entries;
`;

/**
 * The roots (nodes no edge points at), kept by triggers as nodes and edges
 * are appended, so listing a thread's roots reads the few roots, not every
 * node the thread ever had. Derived: backfilled here from the edges.
 */
const NODE_ROOTS = `
CREATE TABLE node_roots (
  node_id TEXT PRIMARY KEY REFERENCES temporal_nodes (id),
  agent_id TEXT NOT NULL,
  thread_key TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX node_roots_by_thread ON node_roots (agent_id, thread_key);
CREATE TRIGGER node_roots_on_node AFTER INSERT ON temporal_nodes BEGIN
  INSERT INTO node_roots (node_id, agent_id, thread_key)
  SELECT new.id, new.agent_id, new.thread_key
  WHERE NOT EXISTS (SELECT 1 FROM node_edges e WHERE e.child_id = new.id);
END;
CREATE TRIGGER node_roots_on_edge AFTER INSERT ON node_edges BEGIN
  DELETE FROM node_roots WHERE node_id = new.child_id;
END;
INSERT INTO node_roots (node_id, agent_id, thread_key)
SELECT n.id, n.agent_id, n.thread_key FROM temporal_nodes n
WHERE NOT EXISTS (SELECT 1 FROM node_edges e WHERE e.child_id = n.id);
`;

/**
 * Tier 3 keeps raw text, secrets included, on the user's machine; what held
 * one is marked when it is recorded (rows are append-only, so never later):
 * `secrets` lists the kinds redactSecrets found, comma-separated, `''` when
 * none, NULL for rows recorded before this step (not checked). Everything
 * that hands lineage text to an agent or a model redacts it on the way out.
 */
const SECRET_MARKS = `
ALTER TABLE transcript_entries ADD COLUMN secrets TEXT;
ALTER TABLE temporal_nodes ADD COLUMN secrets TEXT;
`;

/**
 * Nodes of one kind of an agent in time order: the run digests a session
 * end and the pack's history plane list across every thread, which the
 * thread index cannot order (a project of two thousand sessions had its
 * nodes sorted on every session end).
 */
const NODES_BY_KIND = `
CREATE INDEX temporal_nodes_by_kind ON temporal_nodes (agent_id, kind, start_at);
`;

/** The ordered schema history of lineage.db. */
export const LINEAGE_MIGRATIONS: readonly LineageMigration[] = [
  { version: 1, name: 'history tables', up: (db) => db.exec(HISTORY_TABLES) },
  { version: 2, name: 'transcript search', up: (db) => db.exec(TRANSCRIPT_SEARCH) },
  { version: 3, name: 'compressed entry bodies', up: (db) => db.exec(ENTRY_BODIES) },
  { version: 4, name: 'node roots', up: (db) => db.exec(NODE_ROOTS) },
  { version: 5, name: 'secret marks', up: (db) => db.exec(SECRET_MARKS) },
  { version: 6, name: 'nodes by kind', up: (db) => db.exec(NODES_BY_KIND) },
];

export const LINEAGE_SCHEMA_VERSION = LINEAGE_MIGRATIONS.length;

const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

export interface MigrationResult {
  from: number;
  to: number;
  applied: number[];
}

function currentVersion(db: SqliteDatabase): number {
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

/** The applied version, read without a lock; undefined when it cannot be read yet. */
function readCurrentVersion(db: SqliteDatabase): number | undefined {
  try {
    return lineageSchemaVersion(db);
  } catch {
    return undefined;
  }
}

/** The applied schema version, 0 for a new file. */
export function lineageSchemaVersion(db: SqliteDatabase): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  return table ? currentVersion(db) : 0;
}

/**
 * Applies the missing steps up to `target` (default: all) in one IMMEDIATE
 * transaction. The version is re-read under the write lock, so processes
 * opening a new file at once apply each step exactly once.
 */
export function migrateLineageDatabase(
  db: SqliteDatabase,
  target: number = LINEAGE_SCHEMA_VERSION,
  migrations: readonly LineageMigration[] = LINEAGE_MIGRATIONS,
): MigrationResult {
  const known = migrations.length;
  if (!Number.isInteger(target) || target < 0 || target > known) {
    throw new CairnError('INVALID_INPUT', `Unknown lineage schema version ${target}`, {
      hint: `pass a version between 0 and ${known}`,
    });
  }
  // Every open lands here: an up-to-date file needs a read, not the write lock.
  const current = readCurrentVersion(db);
  if (current !== undefined && current >= target && current <= known) {
    return { from: current, to: current, applied: [] };
  }
  return writeTransaction(db, 'migrate the schema', () => {
    db.exec(MIGRATIONS_TABLE);
    const from = currentVersion(db);
    if (from > known) {
      throw new CairnError(
        'UNSUPPORTED',
        `lineage.db has schema version ${from}; this Cairn knows ${known}`,
        {
          hint: 'upgrade Cairn: a newer version wrote this database, and it is never downgraded',
          details: { version: from, known },
        },
      );
    }
    const applied: number[] = [];
    const insert = db.prepare(
      'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
    );
    for (const migration of migrations.slice(from, target)) {
      migration.up(db);
      insert.run(migration.version, migration.name, new Date().toISOString());
      applied.push(migration.version);
    }
    return { from, to: Math.max(from, target), applied };
  });
}

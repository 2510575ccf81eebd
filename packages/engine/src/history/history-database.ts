import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { type Database, keptReaders, migrate, openDatabase, slugify } from '../store';

export const HISTORY_DB_FILENAME = 'history.db';

/** `<root>/.cairn/state/history.db`: failures met, fix steps and fix patterns (state, not memory). */
export function historyDatabasePath(rootDir: string): string {
  return join(cairnStatePath(rootDir), HISTORY_DB_FILENAME);
}

/**
 * Versioned schema of history.db; append new migrations, never edit old ones.
 * - failures: one row per failing tool event, open until the same command
 *   family succeeds in the session (resolved) or the session ends (abandoned).
 * - steps: the tool events of a session while it has an open failure
 *   (edits, commands, config changes), the material of a fix.
 * - patterns: fix patterns keyed by repo, namespace, signature and their
 *   step sequence, with their state and outcome counts.
 * - pattern_runs: each pattern's evidence, one row per run (session) and role.
 * - applications: a pattern shown after a failure, and how that ended.
 * 2: the namespace's failures newest first and its patterns by signature,
 *    for the pack's history plane (which read every failure of a year-old
 *    project to find the few signatures met last).
 * 3: two patterns of one signature may share their step keys (`edit >
 *    run:pnpm test`) and differ in the files and commands of their steps:
 *    the key index is no longer unique (the id tells them apart).
 * 4: patterns other clones share (docs/TEAMS.md): `shared_evidence` holds
 *    the counts each clone's file gave a pattern, which its counts include,
 *    so a file read again adds only what changed; `shared_files` the hash
 *    of each file read, so an unchanged file is not applied twice.
 */
export const HISTORY_MIGRATIONS = [
  `CREATE TABLE failures (
     id INTEGER PRIMARY KEY, event_id TEXT NOT NULL,
     agent_id TEXT NOT NULL, session_key TEXT NOT NULL, thread_key TEXT NOT NULL,
     repo TEXT NOT NULL, namespace TEXT NOT NULL,
     signature TEXT NOT NULL, family TEXT NOT NULL, normalized TEXT NOT NULL,
     command_family TEXT NOT NULL, step_cursor INTEGER NOT NULL, at TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'open', resolved_event_id TEXT, resolved_at TEXT, pattern_id TEXT);
   CREATE INDEX failures_open ON failures (agent_id, session_key, status);
   CREATE INDEX failures_by_signature ON failures (repo, namespace, signature, at);
   CREATE INDEX failures_recent ON failures (repo, namespace, at);
   CREATE TABLE steps (
     id INTEGER PRIMARY KEY, agent_id TEXT NOT NULL, session_key TEXT NOT NULL,
     event_id TEXT NOT NULL, kind TEXT NOT NULL, step_key TEXT NOT NULL,
     detail TEXT NOT NULL, at TEXT NOT NULL);
   CREATE INDEX steps_by_session ON steps (agent_id, session_key, id);
   CREATE TABLE patterns (
     id TEXT PRIMARY KEY, repo TEXT NOT NULL, namespace TEXT NOT NULL,
     signature TEXT NOT NULL, family TEXT NOT NULL, normalized TEXT NOT NULL,
     command_family TEXT NOT NULL, steps_key TEXT NOT NULL, steps TEXT NOT NULL,
     state TEXT NOT NULL, reason TEXT,
     applied INTEGER NOT NULL DEFAULT 0, succeeded INTEGER NOT NULL DEFAULT 0,
     failed INTEGER NOT NULL DEFAULT 0,
     failure_event_id TEXT NOT NULL, success_event_id TEXT NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE UNIQUE INDEX patterns_key ON patterns (repo, namespace, signature, steps_key);
   CREATE TABLE pattern_runs (
     pattern_id TEXT NOT NULL, agent_id TEXT NOT NULL, session_key TEXT NOT NULL,
     role TEXT NOT NULL, failure_event_id TEXT NOT NULL, success_event_id TEXT, at TEXT NOT NULL,
     PRIMARY KEY (pattern_id, session_key, role, failure_event_id)) WITHOUT ROWID;
   CREATE TABLE applications (
     id INTEGER PRIMARY KEY, pattern_id TEXT NOT NULL, agent_id TEXT NOT NULL,
     session_key TEXT NOT NULL, failure_id INTEGER NOT NULL, step_cursor INTEGER NOT NULL,
     at TEXT NOT NULL, outcome TEXT);
   CREATE INDEX applications_open ON applications (agent_id, session_key, outcome);`,
  `CREATE INDEX failures_by_namespace ON failures (namespace, at);
   CREATE INDEX patterns_by_signature ON patterns (namespace, signature);`,
  `DROP INDEX patterns_key;
   CREATE INDEX patterns_by_steps ON patterns (repo, namespace, signature, steps_key);`,
  `CREATE TABLE shared_evidence (
     pattern_id TEXT NOT NULL, author TEXT NOT NULL, source_id TEXT NOT NULL,
     applied INTEGER NOT NULL, succeeded INTEGER NOT NULL, failed INTEGER NOT NULL,
     PRIMARY KEY (pattern_id, author)) WITHOUT ROWID;
   CREATE INDEX shared_evidence_by_author ON shared_evidence (author);
   CREATE TABLE shared_files (
     author TEXT PRIMARY KEY, hash TEXT NOT NULL, imported_at TEXT NOT NULL) WITHOUT ROWID;`,
];

/** Opens (creating and migrating) history.db. */
export function openHistoryDatabase(rootDir: string): Database {
  const db = openDatabase(historyDatabasePath(rootDir));
  try {
    migrate(db, HISTORY_MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Opens history.db only when it exists: readers never create it. */
export function openHistoryDatabaseIfAny(rootDir: string): Database | undefined {
  return existsSync(historyDatabasePath(rootDir)) ? openHistoryDatabase(rootDir) : undefined;
}

const historyReaders = keptReaders<Database>({
  path: historyDatabasePath,
  open: openHistoryDatabase,
  close: (db) => db.close(),
});

/** Reads history.db through a connection kept a few seconds (store/state-databases.ts); `empty` without one. */
export function withDatabase<T>(rootDir: string, empty: T, read: (db: Database) => T): T {
  return historyReaders.read(rootDir, empty, read);
}

/**
 * Where task history is recorded and read (seed 004 §1: isolated by
 * repository and namespace). history.db and lineage.db live in the
 * project, so their rows are the project's: readers keep to the namespace
 * (`memory.namespace`); the repo is the project folder's name, stored on
 * each row and record for shared stores.
 */
export const DEFAULT_HISTORY_NAMESPACE = 'default';

export interface HistoryScope {
  repo: string;
  namespace: string;
}

/** The repo task history stores: the project folder's name as a slug. */
export function historyRepo(rootDir: string): string {
  return slugify(basename(rootDir), 80);
}

/** The namespace an option names, else `default`. */
export function namespaceOf(options: { namespace?: string | undefined } = {}): string {
  return options.namespace ?? DEFAULT_HISTORY_NAMESPACE;
}

export function historyScope(rootDir: string, namespace?: string): HistoryScope {
  return { repo: historyRepo(rootDir), namespace: namespaceOf({ namespace }) };
}

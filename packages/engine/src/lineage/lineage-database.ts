import { CairnError, type CairnErrorCode, prepareStateDirectory } from '@cairn/core';
import { loadSqlite, openSqlite, type SqliteDatabase } from '@cairn/sqlite';

export { loadSqlite, type SqliteDatabase };

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

function hintFor(code: string | undefined, fallback: CairnErrorCode): string {
  if (code?.startsWith('SQLITE_BUSY') || code?.startsWith('SQLITE_LOCKED')) {
    return 'another process held the lineage database for too long; retry, or raise busyTimeoutMs';
  }
  if (code === 'SQLITE_FULL') return 'free disk space under .cairn/state/ and retry';
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return 'the lineage database is damaged; it is the source of history, so move it aside rather than deleting it and restore your last backup with `cairn import <archive>` (made with `cairn export`)';
  }
  if (code?.startsWith('SQLITE_READONLY') || code?.startsWith('SQLITE_CANTOPEN')) {
    return 'check that .cairn/state/ exists and is writable by this user';
  }
  return fallback === 'WRITE_FAILED'
    ? 'check free disk space and write permission on .cairn/state/'
    : 'check that .cairn/state/lineage.db is readable by this user';
}

/** Wraps a driver error; CairnErrors (validation, NOT_FOUND) pass through unchanged. */
export function lineageError(error: unknown, code: CairnErrorCode, what: string): CairnError {
  if (CairnError.isInstance(error)) return error;
  const sqlite = sqliteCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  return new CairnError(code, `Lineage store could not ${what}: ${reason}`, {
    cause: error,
    hint: hintFor(sqlite, code),
    details: { operation: what, ...(sqlite ? { sqliteCode: sqlite } : {}) },
  });
}

/**
 * Runs `task` in a BEGIN IMMEDIATE transaction: the write lock is taken up
 * front (waiting up to the busy timeout), so a read-then-write never fails
 * with SQLITE_BUSY when another process commits in between.
 */
export function writeTransaction<T>(db: SqliteDatabase, what: string, task: () => T): T {
  try {
    return db.transaction(task).immediate();
  } catch (error) {
    throw lineageError(error, 'WRITE_FAILED', what);
  }
}

/** Runs a read; the snapshot of a deferred transaction keeps multi-query reads consistent. */
export function readTransaction<T>(db: SqliteDatabase, what: string, task: () => T): T {
  try {
    return db.transaction(task).deferred();
  } catch (error) {
    throw lineageError(error, 'READ_FAILED', what);
  }
}

export interface DatabaseOptions {
  busyTimeoutMs: number;
}

const isBusy = (error: unknown) => /SQLITE_BUSY|database is locked/i.test(String(error));

/**
 * Switches a connection to WAL. SQLite answers SQLITE_BUSY at once, without
 * calling the busy handler, when processes race to set the journal mode of a
 * new file (waiting could deadlock them), so retry with a short backoff until
 * the busy timeout has passed.
 */
function enableWal(db: SqliteDatabase, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, delay + Math.random() * delay);
    }
  }
}

/** Opens the file with the pragmas every connection needs; the caller migrates. */
export function openDatabase(path: string, options: DatabaseOptions): SqliteDatabase {
  let db: SqliteDatabase | undefined;
  try {
    prepareStateDirectory(path);
    db = openSqlite(path, 'the lineage store', { timeout: options.busyTimeoutMs });
    // The busy timeout is set by the constructor, before the first pragma needs a lock.
    enableWal(db, options.busyTimeoutMs);
    db.pragma('foreign_keys = ON');
    // synchronous stays FULL (the default): this file is the source of history.
    return db;
  } catch (error) {
    db?.close();
    throw lineageError(error, 'READ_FAILED', `open ${path}`);
  }
}

import { createRequire } from 'node:module';
import { CairnError } from '@cairn/core';
import type BetterSqlite3 from 'better-sqlite3';

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;
type SqliteConstructor = typeof BetterSqlite3;

let loaded: SqliteConstructor | undefined;

/**
 * Loads better-sqlite3 on first use, synchronously, so that a missing or
 * mis-built native module only disables the index instead of failing the
 * import of the whole package.
 */
export function loadSqlite(): SqliteConstructor {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('better-sqlite3') as SqliteConstructor;
    return loaded;
  } catch (error) {
    throw new CairnError('BACKEND_UNAVAILABLE', 'Cannot load better-sqlite3 for the search index', {
      cause: error,
      hint: 'run `pnpm add better-sqlite3` (or `npm rebuild better-sqlite3` after a Node upgrade); search falls back to a plain scan meanwhile',
      details: { package: 'better-sqlite3' },
    });
  }
}

/** SQLite result codes that mean the file is not a usable database. */
export function isDamagedDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB';
}

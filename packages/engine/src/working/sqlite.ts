import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { CairnError } from '@cairn/core';
import type BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;
type Constructor = typeof BetterSqlite3;
let loaded: Constructor | undefined;

/** Loads better-sqlite3 on first use, so commands that never touch state never pay for it. */
export function openDatabase(path: string): Database {
  try {
    loaded ??= createRequire(import.meta.url)('better-sqlite3') as Constructor;
  } catch (error) {
    throw new CairnError('BACKEND_UNAVAILABLE', 'Cannot load better-sqlite3', {
      cause: error,
      hint: 'reinstall with `pnpm install` (pnpm must be allowed to build better-sqlite3)',
    });
  }
  mkdirSync(dirname(path), { recursive: true });
  const db = new loaded(path);
  db.pragma('journal_mode = WAL');
  // Sixteen processes ending sessions at once must queue, not fail.
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  return db;
}

/** Applies `migrations[i]` for every version above the file's `user_version`, each in a transaction. */
export function migrate(db: Database, migrations: readonly string[]): void {
  for (let version = 0; version < migrations.length; version += 1) {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) > version) return;
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

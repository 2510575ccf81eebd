import { openDatabase as openLineageDatabase, type SqliteDatabase } from '../lineage';

export type Database = SqliteDatabase;

/**
 * Opens a working-state database with the same loader and pragmas as the
 * lineage store (WAL, a busy timeout long enough for sixteen processes
 * ending sessions at once to queue rather than fail).
 */
export function openDatabase(path: string): Database {
  return openLineageDatabase(path, { busyTimeoutMs: 10_000 });
}

/** Applies `migrations[i]` for every version above the file's `user_version`, each in a transaction. */
export function migrate(db: Database, migrations: readonly string[]): void {
  // Every open lands here: an up-to-date file needs a read, not the write lock.
  if ((db.pragma('user_version', { simple: true }) as number) >= migrations.length) return;
  for (let version = 0; version < migrations.length; version += 1) {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) > version) return;
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

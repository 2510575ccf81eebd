import { type Database, keptReaders } from '../store';
import { historyDatabasePath, openHistoryDatabase } from './history-database';

const historyReaders = keptReaders<Database>({
  path: historyDatabasePath,
  open: openHistoryDatabase,
  close: (db) => db.close(),
});

/** Reads history.db through a connection kept a few seconds (store/kept-readers.ts); `empty` without one. */
export function withDatabase<T>(rootDir: string, empty: T, read: (db: Database) => T): T {
  return historyReaders.read(rootDir, empty, read);
}

import { type Database, maintenanceDatabasePath, migrate, openDatabase } from '../store';

/** Where the file is: with the `.cairn/` layout (store/project-layout.ts). */
export { maintenanceDatabasePath };

/**
 * `.cairn/state/maintenance.db`, per machine like the other stores:
 * - proposals: each with its patch, its undo once applied, and its state;
 *   the id is derived from kind and units, so a rejected proposal is found
 *   again by id and never proposed a second time.
 * - runs: what each extraction run examined, proposed and pruned.
 * - anchors: the code a unit cites, pinned at a commit.
 * - anchor_checks: the last check of every anchor, for one HEAD (a cache).
 * It opens here, below packs, because a pack reads the anchor-check cache
 * (anchor-cache.ts); maintenance/ owns the rest of what it holds.
 */
export const MAINTENANCE_MIGRATIONS = [
  `CREATE TABLE proposals (
     id TEXT PRIMARY KEY, kind TEXT NOT NULL, state TEXT NOT NULL, body TEXT NOT NULL,
     undo TEXT, created_at TEXT NOT NULL, decided_at TEXT);
   CREATE INDEX proposals_by_state ON proposals (state, created_at);
   CREATE TABLE runs (run_id TEXT PRIMARY KEY, started_at TEXT NOT NULL, body TEXT NOT NULL);
   CREATE TABLE anchors (
     memory_id TEXT NOT NULL, path TEXT NOT NULL, symbol TEXT NOT NULL DEFAULT '',
     line INTEGER, span_hash TEXT NOT NULL, commit_sha TEXT NOT NULL,
     PRIMARY KEY (memory_id, path, symbol)) WITHOUT ROWID;
   CREATE TABLE anchor_checks (cache_key TEXT PRIMARY KEY, checked_at TEXT NOT NULL, body TEXT NOT NULL);`,
];

/** Opens (creating when missing) and migrates the project's maintenance database. */
export function openMaintenanceDatabase(rootDir: string): Database {
  const db = openDatabase(maintenanceDatabasePath(rootDir));
  try {
    migrate(db, MAINTENANCE_MIGRATIONS);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

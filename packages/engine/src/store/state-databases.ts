import { statSync } from 'node:fs';
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

/** How long a reader stays open for the reads that follow it (the next prompt's, in a server). */
const IDLE_MS = 10_000;

interface Kept<H> {
  handle: H;
  /** The file it opened: one replaced or removed since is opened anew, or read as none. */
  ino: number;
  timer?: NodeJS.Timeout;
}

export interface KeptReaders<H> {
  /** Runs `read` on the project's kept reader (opened when needed); `empty` when the file is not there. */
  read<T>(rootDir: string, empty: T, read: (handle: H) => T): T;
  /** Closes the project's reader now. */
  close(rootDir: string): void;
}

/** Every set of kept readers, so that closing a project closes its readers too. */
const everyKind: KeptReaders<unknown>[] = [];

/**
 * Closes a project's kept readers: when a project's stores close, a reader
 * still open would keep the last writer from folding its write-ahead log
 * into the database (only the last connection to close does).
 */
export function closeKeptReaders(rootDir: string): void {
  for (const readers of everyKind) readers.close(rootDir);
}

/**
 * Readers of a project database kept open a few seconds after their last
 * read: the pack's history plane reads history.db and lineage.db at every
 * prompt and session start, and opening one (link checks, WAL, the
 * migration check) costs more than its reads. A file replaced or removed
 * between two reads (a restore, a test's new project) is opened anew.
 * Readers never create the file.
 */
export function keptReaders<H>(options: {
  path: (rootDir: string) => string;
  open: (rootDir: string) => H;
  close: (handle: H) => void;
}): KeptReaders<H> {
  const kept = new Map<string, Kept<H>>();
  const drop = (rootDir: string) => {
    const reader = kept.get(rootDir);
    kept.delete(rootDir);
    clearTimeout(reader?.timer);
    if (reader) options.close(reader.handle);
  };
  const readers: KeptReaders<H> = {
    close: drop,
    read(rootDir, empty, read) {
      const ino = statSync(options.path(rootDir), { throwIfNoEntry: false })?.ino;
      let reader = kept.get(rootDir);
      if (reader && reader.ino !== ino) {
        drop(rootDir);
        reader = undefined;
      }
      if (ino === undefined) return empty;
      if (!reader) {
        reader = { handle: options.open(rootDir), ino };
        kept.set(rootDir, reader);
      }
      clearTimeout(reader.timer);
      reader.timer = setTimeout(() => drop(rootDir), IDLE_MS);
      reader.timer.unref();
      return read(reader.handle);
    },
  };
  everyKind.push(readers as KeptReaders<unknown>);
  return readers;
}

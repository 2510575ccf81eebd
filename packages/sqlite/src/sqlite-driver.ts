import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { assertSafeDatabasePath, CairnError } from '@cairn/core';
import type BetterSqlite3 from 'better-sqlite3';
import { BunCompatDatabase, runningInBun } from './bun-sqlite';
import { NodeCompatDatabase, nodeSqliteUsable } from './node-sqlite';

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;
export type SqliteOpenOptions = BetterSqlite3.Options;

interface SqliteDriver {
  Database: typeof BetterSqlite3;
  /** The compiled addon's path, when it sits where a source build puts it. */
  nativeBinding?: string;
  /** True when the JavaScript is the copy a bundle carries (useBundledBetterSqlite3). */
  bundledCopy?: boolean;
}

let loaded: SqliteDriver | undefined;

/**
 * Loads better-sqlite3 on first use, synchronously, so a missing or mis-built
 * native module disables what needs SQLite instead of failing the import of
 * the whole package. The single loader of the project: the search index and
 * the engine's lineage and working-state stores all open through it.
 */
function loadDriver(purpose: string): SqliteDriver {
  if (loaded) return loaded;
  if (runningInBun()) {
    // The addon cannot load in Bun; a wrapper over bun:sqlite stands in.
    loaded = { Database: BunCompatDatabase as unknown as typeof BetterSqlite3 };
    return loaded;
  }
  if (chooseDriver() === 'node') {
    loaded = { Database: NodeCompatDatabase as unknown as typeof BetterSqlite3 };
    return loaded;
  }
  try {
    loaded = requireBetterSqlite3(createRequire(import.meta.url));
    return loaded;
  } catch (error) {
    throw new CairnError('BACKEND_UNAVAILABLE', `Cannot load better-sqlite3 for ${purpose}`, {
      cause: error,
      hint: SQLITE_DRIVER_FIX,
      details: { package: 'better-sqlite3', node: process.versions.node },
    });
  }
}

/**
 * What to do when no SQLite driver loads: better-sqlite3 is an optional
 * dependency (npm installs Cairn without it when its native build fails or
 * install scripts are off), and node:sqlite stands in from Node 22.16 on.
 */
export const SQLITE_DRIVER_FIX =
  'run Cairn on Node >= 22.16, whose built-in node:sqlite needs no addon; or reinstall with a C++ toolchain (python3, make, g++) so npm can build better-sqlite3: `npm i -g @cairn/cli`, or run `npm rebuild better-sqlite3` after a Node upgrade';

/**
 * better-sqlite3's JavaScript, bundled into a CLI bundle (hook-main.cjs) so
 * that V8's code cache covers it like the rest of the bundle: required from
 * node_modules, its ten files are resolved, read and compiled on every
 * process start (about 5 ms a hook). Only the JavaScript is bundled; the
 * addon still comes from the installed package.
 */
export interface BundledBetterSqlite3 {
  /** The version of the bundled copy: used only when the installed package has the same one. */
  version: string;
  load(): typeof BetterSqlite3;
}

let bundled: BundledBetterSqlite3 | undefined;

/** Called by a bundle that carries better-sqlite3's JavaScript, before any database opens. */
export function useBundledBetterSqlite3(copy: BundledBetterSqlite3): void {
  bundled = copy;
}

/** The installed package's version, or undefined when its package.json cannot be read. */
function installedVersion(packageDir: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    return typeof manifest?.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The addon and its JavaScript; CAIRN_TEST_HIDE_BETTER_SQLITE3=1 (tests
 * only) makes it missing, as after a failed build. The bundled copy of the
 * JavaScript stands in for the installed one only when both are the same
 * version and the addon sits where the installed package built it (the
 * bundled copy cannot search for it), and never for an addon named by
 * CAIRN_SQLITE_BINDING (built for another Node, maybe from another version).
 */
function requireBetterSqlite3(require: NodeJS.Require): SqliteDriver {
  if (process.env.CAIRN_TEST_HIDE_BETTER_SQLITE3 === '1') {
    throw Object.assign(new Error("Cannot find module 'better-sqlite3' (hidden for a test)"), {
      code: 'MODULE_NOT_FOUND',
    });
  }
  const packageDir = dirname(require.resolve('better-sqlite3/package.json'));
  // Naming the addon skips the `bindings` package's search of a dozen
  // folders (a stack trace and many stats on every process start).
  // CAIRN_SQLITE_BINDING names an addon built for another Node ABI, for a
  // plugin running inside a harness on a newer Node than Cairn's install.
  const named = process.env.CAIRN_SQLITE_BINDING;
  const addon = named || join(packageDir, 'build/Release/better_sqlite3.node');
  const nativeBinding = existsSync(addon) ? addon : undefined;
  const copy =
    bundled && !named && nativeBinding && installedVersion(packageDir) === bundled.version
      ? bundled
      : undefined;
  const Database = copy ? copy.load() : (require('better-sqlite3') as typeof BetterSqlite3);
  return { Database, ...(nativeBinding ? { nativeBinding } : {}), bundledCopy: copy !== undefined };
}

const DRIVERS = ['node', 'better-sqlite3'] as const;

/**
 * CAIRN_SQLITE_DRIVER picks the driver (`node` or `better-sqlite3`); a named
 * CAIRN_SQLITE_BINDING means better-sqlite3; otherwise node:sqlite where it
 * has what Cairn needs (Node 22.16+) and better-sqlite3 before that, so
 * better-sqlite3 is loaded only where node:sqlite is missing.
 */
function chooseDriver(): (typeof DRIVERS)[number] {
  const wanted = process.env.CAIRN_SQLITE_DRIVER;
  if (wanted) {
    if (wanted === 'better-sqlite3') return wanted;
    if (wanted === 'node' && nodeSqliteUsable()) return wanted;
    throw new CairnError('INVALID_CONFIG', `CAIRN_SQLITE_DRIVER=${wanted} cannot be used here`, {
      hint: `set it to ${DRIVERS.join(' or ')} (node needs Node 22.16 or later), or unset it`,
      details: { node: process.versions.node },
    });
  }
  if (process.env.CAIRN_SQLITE_BINDING) return 'better-sqlite3';
  return nodeSqliteUsable() ? 'node' : 'better-sqlite3';
}

/** Which driver opens Cairn's databases in this process. */
export function sqliteDriverName(): (typeof DRIVERS)[number] | 'bun' {
  return runningInBun() ? 'bun' : chooseDriver();
}

/**
 * Why no SQLite driver can open Cairn's databases in this process (a
 * CairnError whose hint names the fix), or undefined when one loads. Hooks
 * and `cairn doctor` ask this to say so instead of failing quietly.
 */
export function sqliteDriverProblem(): CairnError | undefined {
  try {
    loadDriver('SQLite');
    return undefined;
  } catch (error) {
    if (CairnError.isInstance(error)) return error;
    return new CairnError('BACKEND_UNAVAILABLE', 'Cannot load a SQLite driver', {
      cause: error,
      hint: SQLITE_DRIVER_FIX,
    });
  }
}

/** True when the databases of this process open through a bundle's copy of better-sqlite3's JavaScript. */
export function usingBundledBetterSqlite3(): boolean {
  return loaded?.bundledCopy === true;
}

/** The better-sqlite3 constructor; throws BACKEND_UNAVAILABLE when it cannot load. */
export function loadSqlite(purpose = 'SQLite'): typeof BetterSqlite3 {
  return loadDriver(purpose).Database;
}

/**
 * Opens a database through the shared loader; `purpose` names it in errors.
 * A link at the file, its -wal/-shm/-journal siblings or any folder from
 * `.cairn/` down is refused (INVALID_PATH) before SQLite can follow it.
 */
export function openSqlite(
  path: string,
  purpose: string,
  options: SqliteOpenOptions = {},
): SqliteDatabase {
  const file = path !== ':memory:' && path !== '';
  if (file) assertSafeDatabasePath(path);
  const { Database, nativeBinding } = loadDriver(purpose);
  const db = new Database(path, { ...(nativeBinding ? { nativeBinding } : {}), ...options });
  if (file) trackDatabase(db, path);
  return db;
}

/** SQLite result codes that mean the file is not a usable database. */
export function isDamagedDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB';
}

/** What `settleWriteAheadLogs` needs of a connection (every driver's database has it). */
interface Connection {
  readonly open: boolean;
  close(): unknown;
}

/** The file databases this process opened (openSqlite), for `settleWriteAheadLogs`. */
const opened = new Map<Connection, string>();

/** Called by openSqlite for every file database. */
export function trackDatabase(db: Connection, path: string): void {
  for (const [other] of opened) if (!other.open) opened.delete(other);
  opened.set(db, path);
}

/**
 * A process that answers one event and exits (a hook) leaves its
 * connections open: closing one checkpoints its write-ahead log and
 * deletes it, fsyncs included. But the next process to open the file
 * reads the whole log to rebuild its index, and checkpoints that are not
 * followed by a close never shorten it (each new process forgets what was
 * copied back), so the log of a long session grows, and so does every
 * event's start. This closes the connections whose log is larger than
 * `maxLogBytes`: the last connection to close folds the log into the
 * database and removes it (a connection other processes still hold is
 * just closed). Errors are ignored: committed work is in the log already.
 */
export function settleWriteAheadLogs(maxLogBytes: number): void {
  for (const [db, path] of opened) {
    opened.delete(db);
    if (!db.open) continue;
    try {
      const log = statSync(`${path}-wal`, { throwIfNoEntry: false });
      if (log && log.size > maxLogBytes) db.close();
    } catch {
      // A log that cannot be stat'ed or closed stays for the next writer.
    }
  }
}

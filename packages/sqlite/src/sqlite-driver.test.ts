import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node24Path } from '@cairn/node24';
import { runVitestOnNode } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nodeSqliteUsable } from './node-sqlite';
import {
  openSqlite,
  SQLITE_DRIVER_FIX,
  settleWriteAheadLogs,
  sqliteDriverName,
  sqliteDriverProblem,
} from './sqlite-driver';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const node24 = node24Path();
const major = Number(process.versions.node.split('.')[0]);
const builtin = nodeSqliteUsable();

// better-sqlite3 is an optional dependency: npm installs Cairn without it
// when its native build fails. CAIRN_TEST_HIDE_BETTER_SQLITE3=1 makes the
// loader's require of the addon fail as it then does (MODULE_NOT_FOUND).
// The tests run in this file's order: a failed load is not remembered, a
// successful one is (the last test loads the addon for real).
describe('the SQLite driver when better-sqlite3 is not installed', () => {
  beforeEach(() => {
    vi.stubEnv('CAIRN_TEST_HIDE_BETTER_SQLITE3', '1');
    vi.stubEnv('CAIRN_SQLITE_DRIVER', '');
    vi.stubEnv('CAIRN_SQLITE_BINDING', '');
  });
  afterEach(() => vi.unstubAllEnvs());

  it.skipIf(builtin)(
    'without node:sqlite (Node < 22.16): BACKEND_UNAVAILABLE, and the hint names the fix',
    () => {
      expect(sqliteDriverName()).toBe('better-sqlite3');
      const problem = sqliteDriverProblem();
      expect(problem).toMatchObject({ code: 'BACKEND_UNAVAILABLE', hint: SQLITE_DRIVER_FIX });
      for (const fix of [
        'python3, make, g++',
        '`npm i -g @cairn/cli`',
        '`npm rebuild better-sqlite3`',
        'Node >= 22.16',
      ]) {
        expect(problem?.hint).toContain(fix);
      }
      expect(() => openSqlite(':memory:', 'the lineage store')).toThrow(
        expect.objectContaining({
          code: 'BACKEND_UNAVAILABLE',
          message: expect.stringContaining('for the lineage store — run Cairn on Node >= 22.16'),
          cause: expect.objectContaining({ code: 'MODULE_NOT_FOUND' }),
        }),
      );
    },
  );

  it.skipIf(!builtin)('from Node 22.16: node:sqlite opens the databases, no addon needed', () => {
    expect(sqliteDriverName()).toBe('node');
    expect(sqliteDriverProblem()).toBeUndefined();
    const db = openSqlite(':memory:', 'a test');
    try {
      expect(db.prepare('SELECT 41 + 1 AS answer').pluck().get()).toBe(42);
    } finally {
      db.close();
    }
  });

  it('loads once the addon is back (a failed load is not remembered)', () => {
    vi.stubEnv('CAIRN_TEST_HIDE_BETTER_SQLITE3', '');
    expect(sqliteDriverProblem()).toBeUndefined();
  });
});

// CI runs Node 20; this file once more on Node 24, where the hidden addon
// must not matter.
describe.skipIf(major >= 24 || !node24)('the same on Node 24', () => {
  it('passes this file with better-sqlite3 hidden', { timeout: 120_000 }, () => {
    const run = runVitestOnNode(node24!, packageDir, ['src/sqlite-driver.test.ts'], {
      CAIRN_SQLITE_BINDING: '',
    });
    expect(run.status, run.output.slice(-4000)).toBe(0);
    expect(run.output).toMatch(/Tests\s+3 passed \| 2 skipped/);
  });
});

// Kept after the tests above: a database opened here would load the driver for good.
let dir: string;

/** A database in WAL mode with `rows` rows of 1 KB committed and the connection left open. */
function databaseWith(name: string, rows: number) {
  const path = join(dir, name);
  const db = openSqlite(path, 'a test database');
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (body TEXT)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i += 1) insert.run('x'.repeat(1024));
  })();
  return { db, path };
}

describe('settleWriteAheadLogs', () => {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-wal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('folds a log past the limit into its database and leaves a short one to the OS', () => {
    const large = databaseWith('large.db', 2_000);
    const small = databaseWith('small.db', 2);
    expect(statSync(`${large.path}-wal`).size).toBeGreaterThan(1024 * 1024);
    settleWriteAheadLogs(1024 * 1024);
    expect(large.db.open).toBe(false);
    expect(existsSync(`${large.path}-wal`)).toBe(false);
    expect(small.db.open).toBe(true);
    expect(existsSync(`${small.path}-wal`)).toBe(true);
    // Nothing committed is lost: a new connection reads every row.
    const again = openSqlite(large.path, 'a test database');
    expect(again.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2_000 });
    again.close();
    small.db.close();
  });
});

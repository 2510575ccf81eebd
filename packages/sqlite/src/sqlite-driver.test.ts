import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node24Path } from '@cairn/node24';
import { runVitestOnNode } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nodeSqliteUsable } from './node-sqlite';
import {
  openSqlite,
  SQLITE_DRIVER_FIX,
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
    expect(run.output).toMatch(/Tests\s+2 passed \| 2 skipped/);
  });
});

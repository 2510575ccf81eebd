import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node24Path } from '@cairn/node24';
import { runVitestOnNode } from '@cairn/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sqliteCodeName } from './node-sqlite';
import { sqliteDriverName } from './sqlite-driver';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const node24 = node24Path();

describe('SQLite driver choice', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('names node:sqlite errors as better-sqlite3 does', () => {
    expect(sqliteCodeName(5)).toBe('SQLITE_BUSY');
    expect(sqliteCodeName(773)).toBe('SQLITE_BUSY_TIMEOUT');
    expect(sqliteCodeName(26)).toBe('SQLITE_NOTADB');
    expect(sqliteCodeName(267)).toBe('SQLITE_CORRUPT_VTAB');
    expect(sqliteCodeName(1555)).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    // An extended code without a name of its own reads as its primary code.
    expect(sqliteCodeName(8 | (5 << 8))).toBe('SQLITE_READONLY');
  });

  it('uses better-sqlite3 before Node 24 and when an addon is named', () => {
    const major = Number(process.versions.node.split('.')[0]);
    if (major < 24) expect(sqliteDriverName()).toBe('better-sqlite3');
    vi.stubEnv('CAIRN_SQLITE_BINDING', '/some/better_sqlite3.node');
    expect(sqliteDriverName()).toBe('better-sqlite3');
  });

  it('rejects a CAIRN_SQLITE_DRIVER it cannot honour with a typed error', () => {
    vi.stubEnv('CAIRN_SQLITE_DRIVER', 'sqlite4');
    expect(() => sqliteDriverName()).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', hint: expect.stringContaining('node') }),
    );
  });
});

// The whole suite of this package (index, refresh, hybrid search, the
// backend conformance run, crash and concurrency tests) once more on Node
// 24 through node:sqlite; CI runs Node 20, where better-sqlite3 is used.
describe.skipIf(!node24)('the file backend on Node 24 through node:sqlite', () => {
  it('passes every other test file of this package', { timeout: 300_000 }, () => {
    const run = runVitestOnNode(node24!, packageDir, ['--exclude', 'src/node-sqlite.test.ts'], {
      CAIRN_SQLITE_DRIVER: 'node',
      CAIRN_SQLITE_BINDING: '',
    });
    expect(run.status, run.output.slice(-4000)).toBe(0);
    expect(run.output).toMatch(/Test Files\s+\d+ passed/);
  });
});

if (!node24) console.warn('skipping the node:sqlite run: @cairn/node24 has no Node 24 binary here');

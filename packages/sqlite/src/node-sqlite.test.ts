import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeSqliteFits, nodeSqliteUsable, sqliteCodeName } from './node-sqlite';
import { sqliteDriverName } from './sqlite-driver';

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

  it('uses better-sqlite3 where node:sqlite is missing and when an addon is named', () => {
    const major = Number(process.versions.node.split('.')[0]);
    if (major < 22) expect(nodeSqliteUsable()).toBe(false);
    expect(sqliteDriverName()).toBe(nodeSqliteUsable() ? 'node' : 'better-sqlite3');
    vi.stubEnv('CAIRN_SQLITE_BINDING', '/some/better_sqlite3.node');
    expect(sqliteDriverName()).toBe('better-sqlite3');
  });

  it('rejects a CAIRN_SQLITE_DRIVER it cannot honour with a typed error', () => {
    vi.stubEnv('CAIRN_SQLITE_DRIVER', 'sqlite4');
    expect(() => sqliteDriverName()).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', hint: expect.stringContaining('node') }),
    );
  });

  it('takes a node:sqlite only with what the wrapper needs (Node 22.16 on, not 22.5 to 22.15)', () => {
    class Database {
      isTransaction = false;
      close() {}
    }
    const statement = { prototype: { setAllowUnknownNamedParameters() {} } };
    const full = { DatabaseSync: Database, StatementSync: statement };
    expect(nodeSqliteFits(full as never)).toBe(true);
    // Node 22.13: no setAllowUnknownNamedParameters, no isTransaction.
    expect(
      nodeSqliteFits({ DatabaseSync: Database, StatementSync: { prototype: {} } } as never),
    ).toBe(false);
    class Older {
      close() {}
    }
    expect(nodeSqliteFits({ DatabaseSync: Older, StatementSync: statement } as never)).toBe(false);
  });
});

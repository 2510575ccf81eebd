import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite-driver';
import { settleWriteAheadLogs } from './write-ahead-logs';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-wal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

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

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectThrowsCode, type LineageFixture, makeLineageFixture } from './lineage.fixture';
import { loadSqlite, type SqliteDatabase } from './lineage-database';
import {
  LINEAGE_MIGRATIONS,
  LINEAGE_SCHEMA_VERSION,
  type LineageMigration,
  migrateLineageDatabase,
} from './lineage-migrations';
import { lineageDatabasePath } from './lineage-store';

let fixture: LineageFixture;
let raw: SqliteDatabase[] = [];
beforeEach(async () => {
  fixture = await makeLineageFixture();
});
afterEach(async () => {
  for (const db of raw) db.close();
  raw = [];
  await fixture.cleanup();
});

/** A plain connection to the project's lineage.db, without migrating it. */
function rawDatabase(): SqliteDatabase {
  const path = lineageDatabasePath(fixture.root);
  mkdirSync(dirname(path), { recursive: true });
  const Database = loadSqlite();
  const db = new Database(path);
  raw.push(db);
  return db;
}

const versions = (db: SqliteDatabase) =>
  (
    db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as {
      version: number;
    }[]
  ).map((row) => row.version);

describe('lineage migrations', () => {
  it('are numbered 1..n in order', () => {
    expect(LINEAGE_MIGRATIONS.map((m) => m.version)).toEqual(
      Array.from({ length: LINEAGE_SCHEMA_VERSION }, (_, i) => i + 1),
    );
    expect(LINEAGE_SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
  });

  it('a new store is created at the latest version, in WAL mode, with foreign keys', () => {
    const store = fixture.open();
    expect(store.path).toBe(lineageDatabasePath(fixture.root));
    expect(store.path.endsWith('/.cairn/state/lineage.db')).toBe(true);
    expect(store.schemaVersion()).toBe(LINEAGE_SCHEMA_VERSION);
    const db = rawDatabase();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(versions(db)).toEqual(LINEAGE_MIGRATIONS.map((m) => m.version));
  });

  it('applying them again changes nothing', () => {
    fixture.open().close();
    const db = rawDatabase();
    const before = db.prepare('SELECT * FROM schema_migrations').all();
    expect(migrateLineageDatabase(db)).toEqual({
      from: LINEAGE_SCHEMA_VERSION,
      to: LINEAGE_SCHEMA_VERSION,
      applied: [],
    });
    fixture.open();
    expect(db.prepare('SELECT * FROM schema_migrations').all()).toEqual(before);
  });

  it('migrates a version 1 database, keeping and indexing its history', () => {
    const db = rawDatabase();
    expect(migrateLineageDatabase(db, 1)).toEqual({ from: 0, to: 1, applied: [1] });
    db.prepare(
      `INSERT INTO transcripts (id, agent_id, session_key, started_at)
       VALUES (1, 'agent-a', 's1', '2026-04-01T10:00:00.000Z')`,
    ).run();
    db.prepare(
      `INSERT INTO transcript_entries (transcript_id, seq, role, text, at)
       VALUES (1, 1, 'user', 'Deploy the staging cluster on Friday', '2026-04-01T10:00:00.000Z')`,
    ).run();
    expect(versions(db)).toEqual([1]);

    const store = fixture.open();
    expect(store.schemaVersion()).toBe(LINEAGE_SCHEMA_VERSION);
    expect(versions(db)).toEqual(LINEAGE_MIGRATIONS.map((m) => m.version));
    const hits = store.searchTranscripts('agent-a', 'staging deploy');
    expect(hits.map((hit) => [hit.sessionKey, hit.seq])).toEqual([['s1', 1]]);
    expect(
      store.appendTranscriptEntry({
        agentId: 'agent-a',
        sessionKey: 's1',
        role: 'assistant',
        text: 'ok',
      }).seq,
    ).toBe(2);
  });

  it('migration 6 orders one kind of node by time through an index, not a sort of the agent', () => {
    const db = rawDatabase();
    migrateLineageDatabase(db, 5);
    expect(migrateLineageDatabase(db)).toMatchObject({ from: 5, to: 6, applied: [6] });
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM temporal_nodes n
         WHERE n.agent_id = 'a' AND n.kind = 'run_digest' ORDER BY n.start_at DESC, n.rowid DESC LIMIT 50`,
      )
      .all() as { detail: string }[];
    const details = plan.map((row) => row.detail).join(' | ');
    expect(details).toContain('temporal_nodes_by_kind');
    expect(details).not.toContain('TEMP B-TREE FOR ORDER BY');
  });

  it('a failing step rolls back entirely and leaves the version where it was', () => {
    const db = rawDatabase();
    migrateLineageDatabase(db, 1);
    const broken: LineageMigration[] = [
      LINEAGE_MIGRATIONS[0]!,
      {
        version: 2,
        name: 'broken',
        up(target) {
          target.exec('CREATE TABLE half_done (x INTEGER)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => migrateLineageDatabase(db, 2, broken)).toThrow(/boom/);
    expect(versions(db)).toEqual([1]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get()).toBe(
      undefined,
    );
  });

  it('refuses a database written by a newer Cairn', () => {
    fixture.open().close();
    const db = rawDatabase();
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 'x')",
    ).run();
    expectThrowsCode(() => fixture.open(), 'UNSUPPORTED');
    expect(Math.max(...versions(db))).toBe(99);
  });

  it('rejects an unknown target version', () => {
    const db = rawDatabase();
    expectThrowsCode(() => migrateLineageDatabase(db, LINEAGE_SCHEMA_VERSION + 1), 'INVALID_INPUT');
  });
});

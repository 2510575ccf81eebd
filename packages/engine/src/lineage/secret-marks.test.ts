import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fakeSecretDump, fakeSecrets, leakedFakeSecrets } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPAND_MAX_ENTRY_CHARS, expandNode } from './expand-node';
import { addLeaf, type LineageFixture, makeLineageFixture, minute } from './lineage.fixture';
import { loadSqlite, type SqliteDatabase } from './lineage-database';
import { LINEAGE_SCHEMA_VERSION, migrateLineageDatabase } from './lineage-migrations';
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

function rawDatabase(): SqliteDatabase {
  const path = lineageDatabasePath(fixture.root);
  mkdirSync(dirname(path), { recursive: true });
  const Database = loadSqlite();
  const db = new Database(path);
  raw.push(db);
  return db;
}

const entryMarks = (db: SqliteDatabase) =>
  (
    db.prepare('SELECT seq, secrets FROM transcript_entries ORDER BY seq').all() as {
      seq: number;
      secrets: string | null;
    }[]
  ).map((row) => [row.seq, row.secrets]);

describe('lineage secret marks', () => {
  it('keeps the raw text and marks each entry and node with the kinds it holds', () => {
    const store = fixture.open();
    const [github, aws] = [fakeSecrets()[1]!, fakeSecrets()[0]!];
    const say = (text: string, at: number, role: 'user' | 'tool' = 'user') =>
      store.appendTranscriptEntry({ agentId: 'a', sessionKey: 's1', role, text, at: minute(at) });
    say('deploy the staging cluster', 1);
    say(`here is my token ${github.value}`, 2);
    say(`${aws.line}\n${'long tool output '.repeat(400)}`, 3, 'tool');
    addLeaf(store, { agentId: 'a', at: 0, sessionKey: 's1', text: `used ${github.value}` });

    // Tier 3 stays lossless: the raw text reads back whole.
    const transcript = store.getTranscript('a', 's1')!;
    expect(transcript.entries[1]!.text).toContain(github.value);
    expect(transcript.entries[2]!.text).toContain(aws.value);
    const db = rawDatabase();
    expect(entryMarks(db)).toEqual([
      [1, ''],
      [2, 'github-token'],
      [3, 'aws-access-key'],
    ]);
    expect(db.prepare('SELECT secrets FROM temporal_nodes').pluck().all()).toEqual([
      'github-token',
    ]);
  });

  it('an expansion for an agent is redacted before it is clipped and says so; the store keeps the raw text', () => {
    const store = fixture.open();
    store.appendTranscriptEntry({
      agentId: 'a',
      sessionKey: 's1',
      role: 'tool',
      text: fakeSecretDump(),
      at: minute(2),
    });
    const leaf = addLeaf(store, {
      agentId: 'a',
      at: 0,
      sessionKey: 's1',
      text: `Summary: set ${fakeSecrets()[11]!.line}`,
    });
    // A secret astride the clip is redacted before the clip: no half of it shows.
    const github = fakeSecrets()[1]!.value;
    store.appendTranscriptEntry({
      agentId: 'a',
      sessionKey: 's1',
      role: 'tool',
      text: `${'x'.repeat(EXPAND_MAX_ENTRY_CHARS - 10)} ${github}`,
      at: minute(3),
    });
    const shown = expandNode(store, leaf.id, 'a');
    expect(leakedFakeSecrets(JSON.stringify(shown))).toEqual([]);
    expect(JSON.stringify(shown)).not.toContain(github.slice(0, 8));
    expect(shown.node.text).toContain('[REDACTED:assignment]');
    expect(shown.node.id).toBe(leaf.id);
    expect(shown.transcript?.entries.map((e) => e.clipped)).toEqual([false, true]);
    expect(shown.redacted.find((f) => f.kind === 'github-token')?.count).toBe(3);
    expect(shown.redacted.find((f) => f.kind === 'assignment')?.count).toBeGreaterThanOrEqual(2);
    expect(store.getTranscript('a', 's1')?.entries[1]?.text).toContain(github);
    expect(store.getNode('a', leaf.id).text).toContain(fakeSecrets()[11]!.value);
  });

  it('a transcript search snippet is cut from redacted text: no part of a secret shows', () => {
    const store = fixture.open();
    const github = fakeSecrets()[1]!.value;
    store.appendTranscriptEntry({
      agentId: 'a',
      sessionKey: 's1',
      role: 'tool',
      text: `${'filler words '.repeat(40)}${github} deploy gateway ${'more words '.repeat(40)}`,
      at: minute(1),
    });
    const [hit] = store.searchTranscripts('a', 'deploy gateway');
    expect(hit?.snippet).toContain('deploy gateway');
    expect(hit?.snippet).not.toContain(github.slice(-12));
    expect(store.getTranscript('a', 's1')?.entries[0]?.text).toContain(github);
  });

  it('migrates a schema 4 database: old rows stay unmarked (NULL), new rows are marked', () => {
    const db = rawDatabase();
    expect(migrateLineageDatabase(db, 4)).toEqual({ from: 0, to: 4, applied: [1, 2, 3, 4] });
    db.prepare(
      `INSERT INTO transcripts (id, agent_id, session_key, started_at)
       VALUES (1, 'a', 's1', '2026-04-01T10:00:00.000Z')`,
    ).run();
    db.prepare(
      `INSERT INTO transcript_entries (transcript_id, seq, role, text, at)
       VALUES (1, 1, 'user', ?, '2026-04-01T10:00:00.000Z')`,
    ).run(`old ${fakeSecrets()[1]!.value}`);
    const store = fixture.open();
    expect(store.schemaVersion()).toBe(LINEAGE_SCHEMA_VERSION);
    expect(LINEAGE_SCHEMA_VERSION).toBeGreaterThanOrEqual(5);
    store.appendTranscriptEntry({ agentId: 'a', sessionKey: 's1', role: 'user', text: 'clean' });
    store.appendTranscriptEntry({
      agentId: 'a',
      sessionKey: 's1',
      role: 'user',
      text: fakeSecrets()[3]!.line,
    });
    expect(entryMarks(db)).toEqual([
      [1, null],
      [2, ''],
      [3, 'openai-key'],
    ]);
    // Marks are written with the row, never after: the table stays append-only.
    expect(() =>
      db.prepare("UPDATE transcript_entries SET secrets = 'x' WHERE seq = 1").run(),
    ).toThrow(/append-only/);
  });
});

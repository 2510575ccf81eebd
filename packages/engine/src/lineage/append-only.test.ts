import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { condenseThread } from './condense-thread';
import { addLeaf, type LineageFixture, makeLineageFixture } from './lineage.fixture';
import { loadSqlite, type SqliteDatabase } from './lineage-database';
import type { LineageStore } from './lineage-store';

let fixture: LineageFixture;
let store: LineageStore;
let raw: SqliteDatabase;
beforeEach(async () => {
  fixture = await makeLineageFixture();
  store = fixture.open();
  const Database = loadSqlite();
  raw = new Database(store.path);
});
afterEach(async () => {
  raw.close();
  await fixture.cleanup();
});

const HISTORY = ['transcripts', 'transcript_entries', 'temporal_nodes', 'node_edges', 'node_links'];

function counts(): Record<string, number> {
  return Object.fromEntries(
    HISTORY.map((table) => [
      table,
      (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
    ]),
  );
}

describe('append-only history', () => {
  it('the store offers no call that updates or deletes history', () => {
    const mutators = Object.keys(store).filter((key) =>
      /^(delete|remove|update|replace|clear|drop|prune|edit|set)/i.test(key),
    );
    expect(mutators).toEqual(['clearSummaryRetry']);
  });

  it('every operation only adds rows', async () => {
    let before = counts();
    const grew = () => {
      const after = counts();
      for (const table of HISTORY) expect(after[table]).toBeGreaterThanOrEqual(before[table]!);
      before = after;
    };
    for (let i = 0; i < 6; i += 1) {
      store.appendTranscriptEntry({
        agentId: 'a',
        sessionKey: `s${i}`,
        role: 'user',
        text: `t${i}`,
      });
      grew();
      addLeaf(store, {
        agentId: 'a',
        at: i * 20,
        unitIds: ['UNIT:0b0a3c1e-9f51-4b7e-9a55-3f3c2b1a0d9e'],
      });
      grew();
      await condenseThread(store, { agentId: 'a', threadKey: 'main', threshold: 2 });
      grew();
    }
    store.recordSummaryFailure({ agentId: 'a', sessionKey: 's1', error: 'x' });
    store.clearSummaryRetry('a', 's1');
    grew();
    expect(before.node_edges).toBeGreaterThan(0);
  });

  it('the database itself refuses updates and deletes of history rows', () => {
    store.appendTranscriptEntry({ agentId: 'a', sessionKey: 's', role: 'user', text: 'keep me' });
    const leaf = addLeaf(store, {
      agentId: 'a',
      at: 0,
      unitIds: ['UNIT:0b0a3c1e-9f51-4b7e-9a55-3f3c2b1a0d9e'],
    });
    store.addNode({
      agentId: 'a',
      kind: 'condensed',
      threadKey: 'main',
      source: 'extractive',
      text: 'top',
      childIds: [leaf.id],
    });
    const attempts = [
      "UPDATE transcript_entries SET text = 'changed'",
      'DELETE FROM transcript_entries',
      "UPDATE transcripts SET session_key = 'other'",
      'DELETE FROM transcripts',
      "UPDATE temporal_nodes SET text = 'changed'",
      'DELETE FROM temporal_nodes',
      'DELETE FROM node_edges',
      "UPDATE node_links SET unit_id = 'x'",
      'DELETE FROM node_links',
    ];
    const before = counts();
    for (const sql of attempts) expect(() => raw.exec(sql), sql).toThrow(/append-only/);
    expect(counts()).toEqual(before);
    expect(store.getNode('a', leaf.id).text).toBe(leaf.text);
  });
});

import { seededRandom } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addLeaf, type LineageFixture, makeLineageFixture } from './lineage.fixture';
import { loadSqlite, type SqliteDatabase } from './lineage-database';
import { migrateLineageDatabase } from './lineage-migrations';
import { type LineageStore, lineageDatabasePath } from './lineage-store';
import type { ListNodesFilter, TemporalNode } from './lineage-types';

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
  const Database = loadSqlite();
  const db = new Database(lineageDatabasePath(fixture.root));
  raw.push(db);
  return db;
}

const random = seededRandom;

const AGENTS = ['a', 'b'];
const THREADS = ['main', 'infra', 'people.alice'];

/** Leaves in several threads and agents, condensed at random, some extra edges. */
function grow(store: LineageStore, seed: number, leaves: number): void {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  for (let at = 0; at < leaves; at += 1) {
    const agentId = pick(AGENTS);
    const threadKey = pick(THREADS);
    const kind = pick(['session_summary', 'compaction', 'run_digest'] as const);
    addLeaf(store, { agentId, at: Math.floor(next() * 500), threadKey, kind });
    if (next() < 0.3) {
      const roots = store.listNodes({ agentId, threadKey, roots: true });
      if (roots.length >= 2) {
        const childIds = roots.filter(() => next() < 0.6).map((node) => node.id);
        if (childIds.length > 0) {
          const parent = store.addNode({
            ...{ agentId, threadKey, kind: 'condensed', source: 'extractive', text: 'c' },
            childIds,
          });
          const extra = roots.find((node) => !childIds.includes(node.id));
          if (extra && extra.depth < parent.depth && next() < 0.5)
            store.addEdge(agentId, parent.id, extra.id);
        }
      }
    }
  }
}

/** The listing as the schema 3 query wrote it: roots found with a NOT EXISTS per node. */
function reference(db: SqliteDatabase, filter: ListNodesFilter): string[] {
  const isRoot = 'NOT EXISTS (SELECT 1 FROM node_edges e WHERE e.child_id = n.id)';
  const roots = filter.roots === undefined ? '' : `AND ${filter.roots ? '' : 'NOT '}${isRoot}`;
  const direction = filter.order === 'desc' ? 'DESC' : 'ASC';
  const rows = db
    .prepare(
      `SELECT n.id FROM temporal_nodes n
       WHERE n.agent_id = @agentId AND (@threadKey IS NULL OR n.thread_key = @threadKey)
         AND (@since IS NULL OR n.end_at >= @since)
         AND (@kinds IS NULL OR n.kind IN (SELECT value FROM json_each(@kinds)))
         ${roots}
       ORDER BY n.start_at ${direction}, n.rowid ${direction} LIMIT @limit`,
    )
    .all({
      agentId: filter.agentId,
      threadKey: filter.threadKey ?? null,
      since: filter.since ?? null,
      kinds: filter.kinds ? JSON.stringify(filter.kinds) : null,
      limit: filter.limit ?? -1,
    }) as { id: string }[];
  return rows.map((row) => row.id);
}

function filters(): ListNodesFilter[] {
  const out: ListNodesFilter[] = [];
  for (const agentId of AGENTS) {
    for (const threadKey of [undefined, ...THREADS]) {
      for (const roots of [undefined, true, false]) {
        out.push({ agentId, threadKey, roots });
        out.push({ agentId, threadKey, roots, order: 'desc', limit: 3 });
        out.push({ agentId, threadKey, roots, kinds: ['condensed', 'compaction'] });
        out.push({ agentId, threadKey, roots, since: '2026-05-01T13:00:00.000Z' });
      }
    }
  }
  return out;
}

function expectSameListings(store: LineageStore, db: SqliteDatabase): void {
  for (const filter of filters()) {
    const ids = store.listNodes(filter).map((node: TemporalNode) => node.id);
    expect(ids, JSON.stringify(filter)).toEqual(reference(db, filter));
  }
}

describe('node roots', () => {
  it('list the same nodes as the per-node NOT EXISTS, for every filter', () => {
    const store = fixture.open();
    grow(store, 7, 160);
    const db = rawDatabase();
    expect(reference(db, { agentId: 'a', roots: false }).length).toBeGreaterThan(10);
    expectSameListings(store, db);
  });

  it('neighbouring roots skip consumed nodes as before', () => {
    const store = fixture.open();
    grow(store, 11, 80);
    const db = rawDatabase();
    for (const node of store.listNodes({ agentId: 'a', threadKey: 'main', roots: true })) {
      const roots = reference(db, { agentId: 'a', threadKey: 'main', roots: true });
      const at = roots.indexOf(node.id);
      const expected = [...roots.slice(Math.max(0, at - 2), at), ...roots.slice(at + 1, at + 3)];
      expect(store.neighbourRoots('a', node.id, 2).map((n) => n.id)).toEqual(expected);
    }
  });

  it('migrating a schema 3 database backfills the roots of its nodes', () => {
    // Grow history through a store, then take back exactly what step 4 added.
    grow(fixture.open(), 23, 120);
    const old = rawDatabase();
    // Steps 5 (secret marks) and 6 (nodes by kind) came after it: take those back too.
    old.exec(`DROP INDEX temporal_nodes_by_kind;
      ALTER TABLE transcript_entries DROP COLUMN secrets;
      ALTER TABLE temporal_nodes DROP COLUMN secrets;
      DROP TRIGGER node_roots_on_node; DROP TRIGGER node_roots_on_edge;
      DROP TABLE node_roots; DELETE FROM schema_migrations WHERE version >= 4;`);
    expect(migrateLineageDatabase(old)).toMatchObject({ from: 3, to: 6, applied: [4, 5, 6] });
    const reopened = fixture.open();
    expectSameListings(reopened, old);
    addLeaf(reopened, { agentId: 'a', at: 900, threadKey: 'main' });
    expectSameListings(reopened, old);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addLeaf,
  expectThrowsCode,
  type LineageFixture,
  makeLineageFixture,
  minute,
} from './lineage.fixture';
import type { LineageStore } from './lineage-store';

let fixture: LineageFixture;
let store: LineageStore;
beforeEach(async () => {
  fixture = await makeLineageFixture();
  store = fixture.open();
});
afterEach(() => fixture.cleanup());

const UNIT_A = 'UNIT:0b0a3c1e-9f51-4b7e-9a55-3f3c2b1a0d9e';
const UNIT_B = 'UNIT:11111111-1111-4111-8111-111111111111';

describe('temporal nodes', () => {
  it('adds leaves with node:<uuid> ids, depth 0 and the given range', () => {
    const node = addLeaf(store, { agentId: 'a', at: 5, unitIds: [UNIT_A] });
    expect(node).toMatchObject({
      agentId: 'a',
      kind: 'session_summary',
      threadKey: 'main',
      sessionKey: 'session-5',
      depth: 0,
      startAt: minute(5),
      endAt: minute(15),
      source: 'harness',
    });
    expect(node.id).toMatch(/^node:[0-9a-f-]{36}$/);
    expect(store.getNode('a', node.id)).toEqual(node);
    expect(store.linkedUnits('a', node.id)).toEqual([UNIT_A]);
  });

  it('keeps a compaction node beside the session summary of the same session', () => {
    const compaction = addLeaf(store, {
      agentId: 'a',
      at: 0,
      kind: 'compaction',
      sessionKey: 's1',
    });
    const summary = addLeaf(store, { agentId: 'a', at: 20, sessionKey: 's1' });
    const ofSession = store.listNodes({ agentId: 'a' }).filter((n) => n.sessionKey === 's1');
    expect(ofSession.map((n) => [n.id, n.kind])).toEqual([
      [compaction.id, 'compaction'],
      [summary.id, 'session_summary'],
    ]);
    expect(store.listNodes({ agentId: 'a', kinds: ['compaction'] }).map((n) => n.id)).toEqual([
      compaction.id,
    ]);
    addLeaf(store, { agentId: 'a', at: 40, sessionKey: 's2' });
    expect(store.listNodes({ agentId: 'a', sessionKey: 's1' }).map((n) => n.id)).toEqual([
      compaction.id,
      summary.id,
    ]);
    expect(
      store
        .listNodes({ agentId: 'a', sessionKey: 's1', kinds: ['session_summary'] })
        .map((n) => n.id),
    ).toEqual([summary.id]);
  });

  it('never shows one agent’s nodes to another, even with the same session and thread', () => {
    const mine = addLeaf(store, { agentId: 'a', at: 0, sessionKey: 'shared' });
    const theirs = addLeaf(store, { agentId: 'b', at: 1, sessionKey: 'shared' });
    expect(store.listNodes({ agentId: 'a' }).map((n) => n.id)).toEqual([mine.id]);
    expect(store.listNodes({ agentId: 'b', threadKey: 'main' }).map((n) => n.id)).toEqual([
      theirs.id,
    ]);
    expectThrowsCode(() => store.getNode('a', theirs.id), 'NOT_FOUND');
    expectThrowsCode(() => store.linkUnits('a', theirs.id, [UNIT_A]), 'NOT_FOUND');
    expectThrowsCode(() => store.children('a', theirs.id), 'NOT_FOUND');
    expectThrowsCode(
      () =>
        store.addNode({
          agentId: 'a',
          kind: 'condensed',
          threadKey: 'main',
          source: 'extractive',
          text: 'steal',
          childIds: [mine.id, theirs.id],
        }),
      'NOT_FOUND',
    );
    expect(store.countNodes('a')).toBe(1);
    expect(store.linkedUnits('b', theirs.id)).toEqual([]);
  });

  it('checks the shape of each kind', () => {
    const leaf = addLeaf(store, { agentId: 'a', at: 0 });
    const base = { agentId: 'a', threadKey: 'main', source: 'harness', text: 'x' };
    const bad = [
      { ...base, kind: 'session_summary' },
      { ...base, kind: 'compaction' },
      { ...base, kind: 'condensed' },
      { ...base, kind: 'condensed', sessionKey: 's', childIds: [leaf.id] },
      { ...base, kind: 'run_digest', childIds: [leaf.id] },
      { ...base, kind: 'run_digest', text: '   ' },
      { ...base, kind: 'run_digest', startAt: minute(5), endAt: minute(4) },
      { ...base, kind: 'run_digest', threadKey: 'Main Thread' },
      { ...base, kind: 'run_digest', unitIds: ['RAW:2026-05-01.md#L1-L2'] },
    ];
    for (const input of bad) expectThrowsCode(() => store.addNode(input as never), 'INVALID_INPUT');
    expect(store.countNodes('a')).toBe(1);
    const digest = store.addNode({ ...base, kind: 'run_digest' });
    expect(digest).toMatchObject({ sessionKey: null, depth: 0 });
    expect(digest.endAt).toBe(digest.startAt);
  });

  it('condensed nodes are one deeper than their deepest child and span them', () => {
    const a = addLeaf(store, { agentId: 'a', at: 0 });
    const b = addLeaf(store, { agentId: 'a', at: 30, kind: 'compaction' });
    const low = store.addNode({
      agentId: 'a',
      kind: 'condensed',
      threadKey: 'main',
      source: 'extractive',
      text: 'a+b',
      childIds: [a.id, b.id],
    });
    expect(low).toMatchObject({
      depth: 1,
      startAt: minute(0),
      endAt: minute(40),
      sessionKey: null,
    });
    const c = addLeaf(store, { agentId: 'a', at: 60 });
    const high = store.addNode({
      agentId: 'a',
      kind: 'condensed',
      threadKey: 'main',
      source: 'extractive',
      text: 'low+c',
      childIds: [c.id, low.id],
    });
    expect(high).toMatchObject({ depth: 2, startAt: minute(0), endAt: minute(70) });
    expect(store.children('a', high.id).map((n) => n.id)).toEqual([low.id, c.id]);
    expect(store.parents('a', a.id).map((n) => n.id)).toEqual([low.id]);
    expect(store.listNodes({ agentId: 'a', roots: true }).map((n) => n.id)).toEqual([high.id]);
    expect(store.listNodes({ agentId: 'a', roots: false })).toHaveLength(4);
  });

  it('adds edges only from a deeper condensed node, so the graph stays acyclic', () => {
    const a = addLeaf(store, { agentId: 'a', at: 0 });
    const b = addLeaf(store, { agentId: 'a', at: 20 });
    const top = store.addNode({
      agentId: 'a',
      kind: 'condensed',
      threadKey: 'main',
      source: 'extractive',
      text: 'a',
      childIds: [a.id],
    });
    expect(store.addEdge('a', top.id, b.id)).toBe(true);
    expect(store.addEdge('a', top.id, b.id)).toBe(false);
    expectThrowsCode(() => store.addEdge('a', a.id, b.id), 'INVALID_INPUT');
    expectThrowsCode(() => store.addEdge('a', top.id, top.id), 'INVALID_INPUT');
    expectThrowsCode(() => store.addEdge('b', top.id, b.id), 'NOT_FOUND');
    expect(store.children('a', top.id).map((n) => n.id)).toEqual([a.id, b.id]);
  });

  it('filters by thread, time, root status and order; lists threads by recency', () => {
    const old = addLeaf(store, { agentId: 'a', at: 0, threadKey: 'infra' });
    const mid = addLeaf(store, { agentId: 'a', at: 100, kind: 'run_digest' });
    const recent = addLeaf(store, { agentId: 'a', at: 200, threadKey: 'infra' });
    store.appendTranscriptEntry({
      agentId: 'a',
      sessionKey: 'fresh',
      role: 'user',
      text: 'new topic',
      threadKey: 'people.alice',
      at: minute(500),
    });
    const ids = (filter: Omit<Parameters<LineageStore['listNodes']>[0], 'agentId'>) =>
      store.listNodes({ agentId: 'a', ...filter }).map((n) => n.id);
    expect(ids({ threadKey: 'infra' })).toEqual([old.id, recent.id]);
    expect(ids({ since: minute(105) })).toEqual([mid.id, recent.id]);
    expect(ids({ order: 'desc', limit: 2 })).toEqual([recent.id, mid.id]);
    expect(store.threadKeys('a')).toEqual(['people.alice', 'infra', 'main']);
    expect(store.threadKeys('b')).toEqual([]);
    expect(store.countNodes('a', 'infra')).toBe(2);
  });

  it('links units idempotently', () => {
    const node = addLeaf(store, { agentId: 'a', at: 0, unitIds: [UNIT_B] });
    expect(store.linkUnits('a', node.id, [UNIT_A, UNIT_B])).toBe(1);
    expect(store.linkUnits('a', node.id, [UNIT_A])).toBe(0);
    expect(store.linkedUnits('a', node.id)).toEqual([UNIT_A, UNIT_B]);
    expectThrowsCode(() => store.linkUnits('a', node.id, ['UNIT:nope']), 'INVALID_INPUT');
  });
});

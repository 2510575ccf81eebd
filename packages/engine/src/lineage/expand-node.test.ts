import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { condenseThread } from './condense-thread';
import { EXPAND_MAX_ENTRIES, EXPAND_MAX_ENTRY_CHARS, expandNode } from './expand-node';
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

const UNIT = 'UNIT:0b0a3c1e-9f51-4b7e-9a55-3f3c2b1a0d9e';

function say(agentId: string, sessionKey: string, text: string, at: number) {
  store.appendTranscriptEntry({ agentId, sessionKey, role: 'user', text, at: minute(at) });
}

describe('expandNode', () => {
  it('returns a consumed leaf with its parent, siblings, thread, units and transcript', async () => {
    say('a', 'shared', 'before the window', 0);
    for (let i = 1; i <= 3; i += 1) say('a', 'shared', `inside ${i}`, i);
    say('a', 'shared', 'after the window', 30);
    say('b', 'shared', 'agent b secret', 2);
    const leaf = addLeaf(store, {
      agentId: 'a',
      at: 1,
      sessionKey: 'shared',
      kind: 'compaction',
      unitIds: [UNIT],
    });
    const others = [
      addLeaf(store, { agentId: 'a', at: 40 }),
      addLeaf(store, { agentId: 'a', at: 60 }),
    ];
    addLeaf(store, { agentId: 'b', at: 1, sessionKey: 'shared' });
    const condensed = await condenseThread(store, {
      agentId: 'a',
      threadKey: 'main',
      threshold: 2,
      batch: 3,
    });

    const expansion = expandNode(store, leaf.id, 'a');
    expect(expansion.node).toEqual(leaf);
    expect(expansion.parents.map((n) => n.id)).toEqual([condensed!.node.id]);
    expect(expansion.children).toEqual([]);
    expect(expansion.siblings.map((n) => n.id)).toEqual(others.map((n) => n.id));
    expect(expansion.thread).toEqual({ threadKey: 'main', nodeCount: 4 });
    expect(expansion.linkedUnits).toEqual([UNIT]);
    expect(expansion.transcript).toMatchObject({
      sessionKey: 'shared',
      totalEntries: 5,
      truncated: true,
    });
    expect(expansion.transcript?.entries.map((e) => e.text)).toEqual([
      'inside 1',
      'inside 2',
      'inside 3',
    ]);
  });

  it('shows a root’s children and its neighbouring roots in the thread', async () => {
    const early = addLeaf(store, { agentId: 'a', at: 0 });
    const consumed = [
      addLeaf(store, { agentId: 'a', at: 20 }),
      addLeaf(store, { agentId: 'a', at: 40 }),
    ];
    const late = addLeaf(store, { agentId: 'a', at: 100 });
    const top = store.addNode({
      agentId: 'a',
      kind: 'condensed',
      threadKey: 'main',
      source: 'extractive',
      text: 'middle',
      childIds: consumed.map((n) => n.id),
    });
    addLeaf(store, { agentId: 'a', at: 50, threadKey: 'elsewhere' });
    const expansion = expandNode(store, top.id, 'a');
    expect(expansion.parents).toEqual([]);
    expect(expansion.children.map((n) => n.id)).toEqual(consumed.map((n) => n.id));
    expect(expansion.siblings.map((n) => n.id)).toEqual([early.id, late.id]);
    expect(expansion.transcript).toBeNull();
    expect(expansion.thread.nodeCount).toBe(5);
  });

  it('bounds the transcript excerpt and falls back to its start outside the range', () => {
    for (let i = 0; i < EXPAND_MAX_ENTRIES + 10; i += 1) {
      say('a', 's1', i === 0 ? 'x'.repeat(EXPAND_MAX_ENTRY_CHARS + 500) : `entry ${i}`, i);
    }
    const node = addLeaf(store, { agentId: 'a', at: 5000, sessionKey: 's1' });
    const excerpt = expandNode(store, node.id, 'a').transcript!;
    expect(excerpt.entries).toHaveLength(EXPAND_MAX_ENTRIES);
    expect(excerpt.entries[0]).toMatchObject({ seq: 1, clipped: true });
    expect(excerpt.entries[0]!.text.length).toBe(EXPAND_MAX_ENTRY_CHARS);
    expect(excerpt.entries[1]).toMatchObject({ seq: 2, clipped: false, text: 'entry 1' });
    expect(excerpt).toMatchObject({ totalEntries: EXPAND_MAX_ENTRIES + 10, truncated: true });
  });

  it('is NOT_FOUND for another agent’s node, and never mixes same-key sessions', () => {
    say('a', 'shared', 'from a', 0);
    say('b', 'shared', 'from b', 0);
    const mine = addLeaf(store, { agentId: 'a', at: 0, sessionKey: 'shared' });
    const theirs = addLeaf(store, { agentId: 'b', at: 0, sessionKey: 'shared' });
    expectThrowsCode(() => expandNode(store, theirs.id, 'a'), 'NOT_FOUND');
    expectThrowsCode(
      () => expandNode(store, 'node:00000000-0000-4000-8000-000000000000', 'a'),
      'NOT_FOUND',
    );
    const expansion = expandNode(store, mine.id, 'a');
    expect(expansion.transcript?.entries.map((e) => e.text)).toEqual(['from a']);
    expect(expansion.siblings).toEqual([]);
    expect(expansion.thread.nodeCount).toBe(1);
  });
});

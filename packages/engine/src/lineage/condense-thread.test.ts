import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { condenseThread, pickBatch } from './condense-thread';
import { EXTRACTIVE_SOURCE, extractiveSummary } from './extractive-summary';
import {
  addLeaf,
  expectThrowsCode,
  type LineageFixture,
  makeLineageFixture,
  minute,
  reachable,
} from './lineage.fixture';
import type { LineageStore } from './lineage-store';
import type { TemporalNode } from './lineage-types';

let fixture: LineageFixture;
let store: LineageStore;
beforeEach(async () => {
  fixture = await makeLineageFixture();
  store = fixture.open();
});
afterEach(() => fixture.cleanup());

/** `count` leaves in thread main, alternating session summaries and compactions. */
function leaves(count: number, agentId = 'a', from = 0): TemporalNode[] {
  return Array.from({ length: count }, (_, i) =>
    addLeaf(store, {
      agentId,
      at: (from + i) * 20,
      kind: i % 2 === 0 ? 'session_summary' : 'compaction',
      sessionKey: `s${Math.floor((from + i) / 2)}`,
    }),
  );
}

const roots = (agentId = 'a') =>
  store.listNodes({
    agentId,
    threadKey: 'main',
    roots: true,
    kinds: ['session_summary', 'compaction', 'condensed'],
  });

describe('condenseThread', () => {
  it('does nothing until the thread has more roots than the threshold', async () => {
    leaves(4);
    expect(
      await condenseThread(store, { agentId: 'a', threadKey: 'main', threshold: 4 }),
    ).toBeNull();
    expect(store.countNodes('a')).toBe(4);
    addLeaf(store, { agentId: 'a', at: 500, kind: 'run_digest', sessionKey: 'r' });
    expect(
      await condenseThread(store, { agentId: 'a', threadKey: 'main', threshold: 4 }),
    ).toBeNull();
  });

  it('consumes the oldest summary and compaction roots into one condensed node', async () => {
    const all = leaves(5);
    const result = await condenseThread(store, {
      agentId: 'a',
      threadKey: 'main',
      threshold: 4,
      batch: 3,
    });
    expect(result).not.toBeNull();
    const { node, consumed, rootsLeft } = result!;
    expect(consumed.map((n) => n.id)).toEqual(all.slice(0, 3).map((n) => n.id));
    expect(new Set(consumed.map((n) => n.kind))).toEqual(
      new Set(['session_summary', 'compaction']),
    );
    expect(node).toMatchObject({
      kind: 'condensed',
      threadKey: 'main',
      sessionKey: null,
      depth: 1,
      startAt: minute(0),
      endAt: minute(50),
      source: EXTRACTIVE_SOURCE,
    });
    expect(node.text).toBe(extractiveSummary(consumed.map((n) => n.text)).text);
    expect(node.text).toContain('Summary at minute 0 / Details of minute 0.');
    expect(store.children('a', node.id).map((n) => n.id)).toEqual(consumed.map((n) => n.id));
    expect(roots().map((n) => n.id)).toEqual([node.id, all[3]!.id, all[4]!.id]);
    expect(rootsLeft).toBe(3);
  });

  it('keeps every source reachable and each consumed once as the DAG deepens', async () => {
    const sources: TemporalNode[] = [];
    for (let round = 0; round < 12; round += 1) {
      sources.push(...leaves(3, 'a', round * 3));
      while (await condenseThread(store, { agentId: 'a', threadKey: 'main', threshold: 4 })) {
        // condense until the thread is back under the threshold
      }
      expect(roots().length).toBeLessThanOrEqual(4);
    }
    const all = store.listNodes({ agentId: 'a' });
    for (const node of all) {
      expect(store.parents('a', node.id).length).toBeLessThanOrEqual(1);
      const children = store.children('a', node.id);
      if (node.kind === 'condensed') {
        expect(node.depth).toBe(1 + Math.max(...children.map((c) => c.depth)));
        expect(node.startAt).toBe(children.map((c) => c.startAt).sort()[0]);
        expect(node.endAt).toBe(
          children
            .map((c) => c.endAt)
            .sort()
            .at(-1),
        );
      }
    }
    const seen = reachable(store, 'a', roots());
    for (const source of sources) expect(seen.has(source.id)).toBe(true);
    expect(Math.max(...all.map((n) => n.depth))).toBeGreaterThanOrEqual(2);
    // Balanced: 36 leaves with batches of 2 stay far shallower than a chain.
    expect(Math.max(...all.map((n) => n.depth))).toBeLessThanOrEqual(6);
  });

  it('passes texts oldest first to a custom summarizer and records its source', async () => {
    leaves(3);
    const calls: string[][] = [];
    const result = await condenseThread(store, {
      agentId: 'a',
      threadKey: 'main',
      threshold: 2,
      batch: 2,
      summarize: async (texts) => {
        calls.push(texts);
        return { text: `model summary of ${texts.length}`, source: 'openai:gpt-test' };
      },
    });
    expect(calls).toEqual([
      [expect.stringContaining('minute 0'), expect.stringContaining('minute 20')],
    ]);
    expect(result?.node).toMatchObject({ text: 'model summary of 2', source: 'openai:gpt-test' });
  });

  it('refuses an empty summary or a batch across threads and writes nothing', async () => {
    leaves(3);
    await expect(
      condenseThread(store, {
        agentId: 'a',
        threadKey: 'main',
        threshold: 2,
        summarize: () => ({ text: '  ', source: 'x' }),
      }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(store.countNodes('a')).toBe(3);
    expectThrowsCode(
      () =>
        store.condenseRoots({
          agentId: 'a',
          threadKey: 'main',
          childIds: [],
          summary: { text: 'x', source: 'y' },
        }),
      'INVALID_INPUT',
    );
    const elsewhere = addLeaf(store, { agentId: 'a', at: 900, threadKey: 'other' });
    const [first] = roots();
    expectThrowsCode(
      () =>
        store.condenseRoots({
          agentId: 'a',
          threadKey: 'main',
          childIds: [first!.id, elsewhere.id],
          summary: { text: 'x', source: 'y' },
        }),
      'INVALID_INPUT',
    );
    expect(store.countNodes('a')).toBe(4);
  });

  it('never counts or consumes another agent’s roots in the same thread key', async () => {
    leaves(3, 'a');
    const theirs = leaves(6, 'b');
    expect(
      await condenseThread(store, { agentId: 'a', threadKey: 'main', threshold: 3 }),
    ).toBeNull();
    const result = await condenseThread(store, { agentId: 'b', threadKey: 'main', threshold: 3 });
    expect(result?.consumed.every((n) => n.agentId === 'b')).toBe(true);
    expect(result?.consumed[0]?.id).toBe(theirs[0]!.id);
    expect(roots('a')).toHaveLength(3);
  });

  it('two stores condensing at once never consume a root twice', async () => {
    const other = fixture.open();
    leaves(9);
    let release!: () => void;
    const bothSummarizing = new Promise<void>((resolve) => {
      release = resolve;
    });
    let waiting = 0;
    const summarize = async (texts: string[]) => {
      waiting += 1;
      if (waiting === 2) release();
      await bothSummarizing;
      return extractiveSummary(texts);
    };
    const options = { agentId: 'a', threadKey: 'main', threshold: 8, batch: 4, summarize };
    const results = await Promise.all([
      condenseThread(store, options),
      condenseThread(other, options),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(store.listNodes({ agentId: 'a', kinds: ['condensed'] })).toHaveLength(1);
    for (const node of store.listNodes({ agentId: 'a' })) {
      expect(store.parents('a', node.id).length).toBeLessThanOrEqual(1);
    }
    expect(roots()).toHaveLength(6);
  });
});

describe('pickBatch', () => {
  const node = (id: string, depth: number, at: number) =>
    ({ id, depth, startAt: minute(at) }) as TemporalNode;

  it('takes the oldest of the shallowest depth that fills a batch, else the widest', () => {
    const nodes = [
      node('c1', 1, 0),
      node('c2', 1, 10),
      node('c3', 1, 20),
      node('l1', 0, 30),
      node('l2', 0, 40),
    ];
    expect(pickBatch(nodes, 2).map((n) => n.id)).toEqual(['l1', 'l2']);
    expect(pickBatch(nodes, 3).map((n) => n.id)).toEqual(['c1', 'c2', 'c3']);
    expect(pickBatch(nodes, 4).map((n) => n.id)).toEqual(['c1', 'c2', 'c3']);
    expect(
      pickBatch([node('a', 0, 5), node('b', 1, 0), node('c', 2, 1)], 2).map((n) => n.id),
    ).toEqual(['b', 'c']);
  });
});

describe('extractiveSummary', () => {
  it('keeps the first lines of each text, without markdown markers, within bounds', () => {
    const summary = extractiveSummary([
      '# Title\n\n- did A\n- did B\n- did C',
      `x ${'y'.repeat(500)}`,
    ]);
    expect(summary.source).toBe('extractive');
    const [first, second] = summary.text.split('\n');
    expect(first).toBe('- Title / did A');
    expect(second!.length).toBeLessThanOrEqual(242);
    expect(second!.endsWith('…')).toBe(true);
    const many = extractiveSummary(Array.from({ length: 100 }, () => 'z'.repeat(300)));
    expect(many.text.length).toBeLessThanOrEqual(4100);
    expect(many.text).toMatch(/… and \d+ more$/);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LineageFixture, makeLineageFixture } from './lineage.fixture';
import type { LineageStore } from './lineage-store';
import { COMPRESS_ABOVE, readEntryText, storeEntryText } from './transcript-repository';

let fixture: LineageFixture;
let store: LineageStore;
beforeEach(async () => {
  fixture = await makeLineageFixture();
  store = fixture.open();
});
afterEach(() => fixture.cleanup());

/** A tool output as agents see them: a long log whose error sits at the end. */
function longLog(lines: number, last: string): string {
  const body = Array.from(
    { length: lines },
    (_, i) => `  ✓ src/module-${i}.test.ts (${i % 7} tests) ${i * 3} ms — ok 🙂`,
  );
  return [...body, last].join('\n');
}

describe('entry bodies (Tier 3 stays lossless)', () => {
  it('keeps short entries as they are, with no body', () => {
    expect(storeEntryText('hello')).toEqual({ text: 'hello', body: null });
    const edge = 'x'.repeat(COMPRESS_ABOVE);
    expect(storeEntryText(edge).body).toBeNull();
  });

  it('stores a long entry compressed and reads back every character', () => {
    const full = longLog(2000, 'Error: ECONNREFUSED 127.0.0.1:5432 (flakyport)');
    const stored = storeEntryText(full);
    expect(stored.body).not.toBeNull();
    expect(stored.body!.byteLength).toBeLessThan(Buffer.byteLength(full) / 4);
    expect(stored.text.length).toBeLessThanOrEqual(COMPRESS_ABOVE);
    expect(readEntryText(stored)).toBe(full);
  });

  it('never splits a surrogate pair in the excerpt', () => {
    const full = '😀'.repeat(COMPRESS_ABOVE);
    const { text } = storeEntryText(full);
    expect(text).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
  });

  it('round-trips a 1 MB tool output through the store byte for byte, and searches its tail', () => {
    const full = longLog(20_000, 'FATAL: relation "zanzibar_orders" does not exist');
    expect(full.length).toBeGreaterThan(1_000_000);
    store.appendTranscriptEntry({
      agentId: 'a',
      sessionKey: 's',
      role: 'tool',
      toolName: 'Bash',
      text: full,
    });
    const read = store.getTranscript('a', 's');
    expect(read?.entries[0]?.text).toBe(full);
    const hits = store.searchTranscripts('a', 'zanzibar orders');
    expect(hits.map((hit) => hit.seq)).toEqual([1]);
    expect(hits[0]?.snippet).toContain('zanzibar');
  });
});

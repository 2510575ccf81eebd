import { expect, it } from 'vitest';
import type { BackendFixture } from './backend-fixture';
import { bigContent } from './child-writers';
import { expectCode } from './expect-code';
import { snapshotTree } from './tree-snapshot';

const UNICODE = [
  '# Mémoire du projet 記憶 🧠',
  '',
  'RTL: שלום עולם — مرحبا',
  'Combining: e\u0301 vs é; zero-width: a\u200bb; astral: 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'CRLF stays\r\nas written',
  '',
].join('\n');

/** Tests for backends that declare `writable`. */
export function describeBackendWrites(fixture: BackendFixture): void {
  describeRoundTrips(fixture);
  describeBoundedReads(fixture);
  describeConcurrentWrites(fixture);
}

/** What is written reads back exactly; what is not a string is refused. */
function describeRoundTrips(fixture: BackendFixture): void {
  it('round-trips plain, unicode and empty content exactly', async () => {
    const backend = fixture.backend();
    const { root } = fixture.project();
    for (const text of ['hello\n', UNICODE, '', 'no trailing newline']) {
      const written = await backend.write(root, text);
      expect(written.bytes).toBe(Buffer.byteLength(text));
      expect((await backend.read(root)).content).toBe(text);
    }
    expect((await backend.read(root)).exists).toBe(true);
    if (backend.exists) expect(await backend.exists(root)).toBe(true);
  });

  it('round-trips large content (8 MB)', { timeout: 60_000 }, async () => {
    const backend = fixture.backend();
    const { root } = fixture.project();
    const text = bigContent('large', 8 * 1024 * 1024);
    await backend.write(root, text);
    expect((await backend.read(root)).content === text).toBe(true);
  });

  it('rejects non-string content with INVALID_INPUT and changes nothing', async () => {
    const backend = fixture.backend();
    const { root } = fixture.project();
    await backend.write(root, 'original\n');
    const before = await snapshotTree(root);
    for (const bad of [undefined, null, 42, { text: 'x' }, Buffer.from('x')]) {
      await expectCode(backend.write(root, bad as unknown as string), 'INVALID_INPUT');
    }
    expect(await snapshotTree(root)).toEqual(before);
  });
}

/** `get` and `search` answer with bounded parts of the document. */
function describeBoundedReads(fixture: BackendFixture): void {
  it('get returns a bounded line range', async (ctx) => {
    const backend = fixture.backend();
    if (!backend.get) return ctx.skip('the backend has no get()');
    const { root } = fixture.project();
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`);
    await backend.write(root, `${lines.join('\n')}\n`);
    const slice = await backend.get(root, { path: 'MEMORY.md', startLine: 10, lineCount: 3 });
    expect(slice).toMatchObject({
      content: 'line 10\nline 11\nline 12',
      startLine: 10,
      endLine: 12,
    });
    expect(slice.totalLines).toBe(500);
    const capped = await backend.get(root, { path: 'MEMORY.md', lineCount: 100_000 });
    expect(capped.truncated).toBe(true);
    expect(capped.endLine).toBeLessThan(500);
  });

  it('search returns bounded snippets, never the whole document', async (ctx) => {
    const backend = fixture.backend();
    if (!backend.search) return ctx.skip('the backend has no search()');
    const { root } = fixture.project();
    const filler = 'Unrelated filler text about nothing in particular. '.repeat(40);
    await backend.write(root, `${filler}\n\nWe deploy with the zebracorn pipeline.\n\n${filler}\n`);
    const hits = await backend.search(root, { query: 'zebracorn pipeline', snippetChars: 120 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.snippet).toContain('zebracorn');
    for (const hit of hits) expect(hit.snippet.length).toBeLessThanOrEqual(122);
    await expectCode(backend.search(root, { query: '   ' }), 'INVALID_INPUT');
  });
}

/** Two writers at once, and a later instance reading an earlier one's write. */
function describeConcurrentWrites(fixture: BackendFixture): void {
  const { capabilities } = fixture;
  it('two concurrent writers leave one complete version, never a torn file', async () => {
    const backend = fixture.backend();
    const { root } = fixture.project();
    const a = bigContent('writer-a', 2 * 1024 * 1024);
    const b = bigContent('writer-b', 3 * 1024 * 1024);
    for (let round = 0; round < 5; round += 1) {
      const second = await fixture.create();
      const results = await Promise.allSettled([backend.write(root, a), second.write(root, b)]);
      if (!capabilities.hasConflictResolution) {
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      }
      const content = (await backend.read(root)).content;
      expect(content === a || content === b).toBe(true);
    }
  });

  if (capabilities.persistent) {
    it('a fresh instance reads what an earlier one wrote', async () => {
      const { root } = fixture.project();
      await fixture.backend().write(root, 'persisted ✓\n');
      const fresh = await fixture.create();
      expect((await fresh.read(root)).content).toBe('persisted ✓\n');
    });
  }
}

import type { MemoryChunk } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CONTEXT_CHARS,
  chunkContexts,
  contextAfter,
  contextBefore,
  isHeadingOnly,
} from './chunk-context';
import { openSearchIndex, type SearchIndex } from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

const chunk = (startLine: number, text: string): MemoryChunk => ({
  id: `notes.md#L${startLine}`,
  kind: 'RAW',
  path: 'notes.md',
  startLine,
  endLine: startLine,
  text,
});

describe('chunk context', () => {
  it('cuts neighbours at word boundaries, never inside a word', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const before = contextBefore(words);
    const after = contextAfter(words);
    expect(before.length).toBeLessThanOrEqual(CONTEXT_CHARS);
    expect(after.length).toBeLessThanOrEqual(CONTEXT_CHARS);
    expect(words.endsWith(before)).toBe(true);
    expect(words.startsWith(after)).toBe(true);
    expect(before).toMatch(/^word\d+ /);
    expect(after).toMatch(/ word\d+$/);
    expect(contextBefore('short text')).toBe('short text');
    expect(contextAfter('short text')).toBe('short text');
    expect(contextBefore('x'.repeat(CONTEXT_CHARS + 5))).toBe('');
  });

  it('gives each chunk the ends of the two before and the start of the one after, by line', () => {
    const chunks = [chunk(9, 'third'), chunk(1, 'first'), chunk(5, 'second'), chunk(12, 'fourth')];
    expect(chunkContexts(chunks)).toEqual([
      'first\nsecond\nfourth',
      'second',
      'first\nthird',
      'second\nthird',
    ]);
    expect(chunkContexts([chunk(1, 'alone')])).toEqual(['']);
    expect(chunkContexts([])).toEqual([]);
  });

  it('gives a heading-only chunk no context, while its neighbours still see it', () => {
    const chunks = [chunk(1, '# 2026-03-01\n\n## Notes'), chunk(3, 'deploy on friday')];
    expect(chunkContexts(chunks)).toEqual(['', '# 2026-03-01\n\n## Notes']);
    expect(isHeadingOnly('# Title')).toBe(true);
    expect(isHeadingOnly('#hashtag is text')).toBe(false);
    expect(isHeadingOnly('# Title\nbody')).toBe(false);
    expect(isHeadingOnly('')).toBe(false);
  });
});

describe('search index: neighbour context', () => {
  let project: TempProject;
  let index: SearchIndex;
  beforeEach(async () => {
    project = await makeTempProject();
    index = openSearchIndex(project.root);
  });
  afterEach(async () => {
    index.close();
    await project.cleanup();
  });

  const day = (...texts: string[]) =>
    writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      texts.map((text, i) => unit(i + 1, text)).join('\n'),
    );

  it('finds a note through the notes before it, below the note that holds the words', async () => {
    await day(
      'Why does the nightly build fail on the arm runners?',
      'The cache key ignored the platform, so x64 artifacts were restored.',
      'Fixed by adding the architecture to the key.',
      'Unrelated: lunch order for Friday.',
    );
    const ids = (await index.search({ query: 'nightly build arm runners' })).map((h) => h.memoryId);
    // The answer and the fix two notes later come through their context; the fourth note is
    // three notes away and never sees the question.
    expect(ids).toEqual([unitId(1), unitId(2), unitId(3)]);
  });

  it('follows a neighbour edit on refresh, and a rebuild answers the same', async () => {
    await day('Deploy notes for the gateway.', 'Rolled back after the latency spike.');
    expect((await index.search({ query: 'kubernetes' })).length).toBe(0);
    await day('Deploy notes for the kubernetes gateway.', 'Rolled back after the latency spike.');
    const refreshed = await index.search({ query: 'kubernetes' });
    expect(refreshed.map((h) => h.memoryId)).toEqual([unitId(1), unitId(2)]);
    await index.rebuild();
    expect(await index.search({ query: 'kubernetes' })).toEqual(refreshed);
  });

  it('keeps context inside one file', async () => {
    await day('Postgres vacuum settings tuned.');
    await writeWorkspaceFile(project.root, '2026-03-02.md', unit(9, 'Unrelated release notes.'));
    const ids = (await index.search({ query: 'postgres vacuum' })).map((h) => h.memoryId);
    expect(ids).toEqual([unitId(1)]);
  });
});

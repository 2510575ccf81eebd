import { getDefaultDreamsScaffold, getDefaultMemoryScaffold } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { renderedViews } from './rendered-views';
import { chunkFile } from './sync-pool';

const views = (text: string, path: string) => {
  const chunks = chunkFile(text, path, {});
  return chunks.map((chunk, i) => [
    chunk.text.split('\n')[0],
    renderedViews(text, path, chunks)[i],
  ]);
};

describe('rendered views', () => {
  it("marks the managed regions and Cairn's templates, not the user's own text", () => {
    const memory = getDefaultMemoryScaffold().replace(
      '<!-- cairn:head:start -->\n',
      '<!-- cairn:head:start -->\n## Decisions\n\n- Use pnpm.\n',
    );
    expect(views(`${memory}\n## Mine\n\nAsk Priya first.\n`, 'MEMORY.md')).toEqual([
      ['# Project memory', true],
      ['## Decisions', true],
      ['## Notes', true],
      ['## Mine', false],
    ]);
    expect(views(getDefaultDreamsScaffold(), 'DREAMS.md')).toEqual([['# Dreams', true]]);
    expect(views(`${getDefaultDreamsScaffold()}\nA dream of my own.\n`, 'DREAMS.md')).toEqual([
      ['# Dreams', false],
    ]);
    const thread = [
      '<!-- cairn:thread-head:start -->',
      '# Thread main',
      '',
      '**Status:** shipping',
      '<!-- cairn:thread-head:end -->',
      '',
      '## Head text edited outside Cairn (kept)',
      '',
      'my edit',
    ].join('\n');
    expect(views(thread, 'threads/a.main.md')).toEqual([
      ['# Thread main', true],
      ['## Head text edited outside Cairn (kept)', false],
    ]);
    expect(views('# 2026-03-01\n\nProject memory\n', '2026-03-01.md')).toEqual([
      ['# 2026-03-01', false],
    ]);
  });
});

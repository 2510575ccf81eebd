import { mkdir } from 'node:fs/promises';
import { type MemoryBackend, type MemorySearchResult, memoryWorkspacePath } from '@cairn/core';
import { expectCode, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FallbackBackend, searchWithFileFallback } from './file-storage';
import { warningSink } from './warning-sink';

const fileHit: MemorySearchResult = {
  path: 'MEMORY.md',
  startLine: 1,
  endLine: 1,
  score: 1,
  snippet: 'from the file index',
};

/** Stands in for @cairn/backend-file, which depends on this package. */
const fileIndex: FallbackBackend = {
  type: 'file',
  name: 'file stand-in',
  capabilities: {} as MemoryBackend['capabilities'],
  read: async () => ({ content: '', exists: false, path: 'MEMORY.md' }),
  write: async () => {
    throw new Error('not written in this test');
  },
  search: async () => [fileHit],
};

describe('searchWithFileFallback', () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await makeTempProject();
  });
  afterEach(() => project.cleanup());

  const fallbackOf = (canFallBack: boolean) => {
    const sink = warningSink();
    return {
      sink,
      search: searchWithFileFallback(
        { engine: 'Engine', file: fileIndex, warn: sink.warn, canFallBack: () => canFallBack },
        async (_root, _options, terms) => {
          throw new Error(`engine down for ${terms.join(' ')}`);
        },
      ),
    };
  };

  it('finds nothing in a project without a workspace', async () => {
    const { search, sink } = fallbackOf(true);
    expect(await search(project.root, { query: 'deploy' })).toEqual([]);
    expect(sink.warnings).toEqual([]);
  });

  it('answers from the file index, with one warning, when the engine fails', async () => {
    await mkdir(memoryWorkspacePath(project.root), { recursive: true });
    const { search, sink } = fallbackOf(true);
    expect(await search(project.root, { query: 'How do we deploy?' })).toEqual([fileHit]);
    await search(project.root, { query: 'How do we deploy?' });
    expect(sink.warnings).toEqual([
      'Engine search failed, using the file index instead: INTERNAL: engine down for deploy',
    ]);
  });

  it('throws what the caller must fix, and a bad input before searching', async () => {
    await mkdir(memoryWorkspacePath(project.root), { recursive: true });
    const { search } = fallbackOf(false);
    await expect(search(project.root, { query: 'deploy' })).rejects.toThrow('engine down');
    await expectCode(search(project.root, { query: 42 } as never), 'INVALID_INPUT');
  });
});

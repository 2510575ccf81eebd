import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryChunk } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderSource } from './pool-definitions';
import {
  hasChanges,
  type PoolChanges,
  type PoolSink,
  type StoredFileState,
  type SyncSource,
  syncPool,
} from './sync-pool';

const CHUNK = { maxTokens: 200, overlapTokens: 0 };

/** An index kept in memory: file states and chunk texts by path, and every write it saw. */
function memoryIndex() {
  const states = new Map<string, StoredFileState>();
  const chunks = new Map<string, string[]>();
  const writes: PoolChanges[] = [];
  let failAfterChunks = false;
  const sink: PoolSink = {
    fileStates: () => new Map(states),
    write(changes) {
      writes.push(changes);
      if (changes.reset) {
        states.clear();
        chunks.clear();
      }
      let chunksWritten = 0;
      for (const file of changes.updates) {
        chunks.set(
          file.path,
          file.chunks.map((chunk) => chunk.text),
        );
        chunksWritten += file.chunks.length;
      }
      for (const path of changes.removed) chunks.delete(path);
      // The states go last: a write that stops before them is redone by the next sync.
      if (failAfterChunks) {
        failAfterChunks = false;
        throw new Error('killed before the file states were recorded');
      }
      for (const path of changes.removed) states.delete(path);
      for (const { path, size, mtimeMs, hash } of [...changes.restat, ...changes.updates]) {
        states.set(path, { size, mtimeMs, hash });
      }
      return { chunksWritten };
    },
  };
  return {
    sink,
    states,
    chunks,
    writes,
    failNextWrite: () => {
      failAfterChunks = true;
    },
  };
}

describe('syncPool', () => {
  let dir: string;
  let source: SyncSource;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-sync-pool-'));
    source = folderSource(dir);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = (name: string, text: string) => writeFile(join(dir, name), text);
  const sync = (index: ReturnType<typeof memoryIndex>, options = {}) =>
    syncPool(source, index.sink, { chunk: CHUNK, ...options });

  it('indexes new files, then reads nothing while nothing changed', async () => {
    await write('a.md', 'alpha notes\n');
    await write('b.md', 'beta notes\n');
    const index = memoryIndex();
    const first = await sync(index);
    expect(first.stats).toMatchObject({ filesScanned: 2, filesRead: 2, filesChanged: 2 });
    expect([...index.chunks.keys()].sort()).toEqual(['a.md', 'b.md']);
    expect([...first.states.keys()].sort()).toEqual(['a.md', 'b.md']);

    const second = await sync(index);
    expect(second.stats).toMatchObject({ filesScanned: 2, filesRead: 0, filesChanged: 0 });
    expect(hasChanges(second.changes)).toBe(false);
  });

  it('re-chunks a changed file, restats a touched one, removes a deleted one', async () => {
    await write('a.md', 'alpha notes\n');
    await write('b.md', 'beta notes\n');
    await write('c.md', 'gamma notes\n');
    const index = memoryIndex();
    await sync(index);

    await write('a.md', 'alpha notes, revised\n');
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, 'b.md'), later, later);
    await rm(join(dir, 'c.md'));
    const { stats, changes } = await sync(index);

    expect(changes.updates.map((file) => file.path)).toEqual(['a.md']);
    expect(changes.restat.map((file) => file.path)).toEqual(['b.md']);
    expect(changes.removed).toEqual(['c.md']);
    expect(stats).toMatchObject({ filesRead: 2, filesChanged: 1, filesRemoved: 1 });
    expect(index.chunks.get('a.md')?.join('\n')).toContain('revised');
    expect(index.chunks.has('c.md')).toBe(false);
    expect(index.states.get('b.md')?.mtimeMs).toBe((await stat(join(dir, 'b.md'))).mtimeMs);
  });

  it('redoes an interrupted sync: the stored states were not moved', async () => {
    await write('a.md', 'alpha notes\n');
    const index = memoryIndex();
    index.failNextWrite();
    await expect(sync(index)).rejects.toThrow(/killed/);
    expect(index.states.size).toBe(0);

    const resumed = await sync(index);
    expect(resumed.stats).toMatchObject({ filesRead: 1, filesChanged: 1 });
    expect(index.states.has('a.md')).toBe(true);
    expect((await sync(index)).stats.filesRead).toBe(0);
  });

  it('warns about a file its chunker fails on, syncs the others, and tries it again', async () => {
    await write('good.md', 'good notes\n');
    await write('bad.md', 'bad notes\n');
    const index = memoryIndex();
    const warnings: string[] = [];
    const picky: SyncSource = {
      ...source,
      chunk: (text, path): MemoryChunk[] => {
        if (path === 'bad.md') throw new Error('unreadable section');
        return [{ id: path, path, kind: 'RAW', text, startLine: 1, endLine: 1 }];
      },
    };
    const first = await syncPool(picky, index.sink, {
      chunk: CHUNK,
      warn: (message) => warnings.push(message),
    });
    expect(first.stats.filesChanged).toBe(1);
    expect([...index.states.keys()]).toEqual(['good.md']);
    expect(warnings).toEqual([expect.stringMatching(/bad\.md.*unreadable section/)]);

    // Without a warning sink the failure is the caller's.
    await expect(syncPool(picky, index.sink, { chunk: CHUNK })).rejects.toThrow(/unreadable/);
  });

  it('ignores the stored states on a full sync and asks the sink to reset', async () => {
    await write('a.md', 'alpha notes\n');
    const index = memoryIndex();
    await sync(index);
    const { stats, changes } = await sync(index, { full: true });
    expect(changes.reset).toBe(true);
    expect(stats).toMatchObject({ filesRead: 1, filesChanged: 1 });
    expect(index.states.has('a.md')).toBe(true);
  });
});

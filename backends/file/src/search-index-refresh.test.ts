import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnIndexPath, type MemorySearchOptions, memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSearchIndex, type SearchIndex } from './index';
import { unit, writeWorkspaceFile } from './test-fixtures';

let project: TempProject;
let index: SearchIndex;
let clock = Date.parse('2026-01-01T00:00:00Z') / 1000;
beforeEach(async () => {
  project = await makeTempProject();
  index = openSearchIndex(project.root);
});
afterEach(async () => {
  index.close();
  await project.cleanup();
});

/** Writes a workspace file with a fresh mtime, so no edit hides behind an equal size and time. */
async function write(path: string, text: string): Promise<void> {
  await writeWorkspaceFile(project.root, path, text);
  clock += 10;
  await utimes(join(memoryWorkspacePath(project.root), path), clock, clock);
}

const QUERIES: MemorySearchOptions[] = [
  { query: 'pnpm workspace lockfile', limit: 20 },
  { query: 'deploy canary rollback', limit: 20 },
  { query: 'otter', limit: 20, filters: { includeDeprecated: true } },
  { query: 'notes about the release', limit: 20, filters: { kind: ['RAW'] } },
  { query: 'decision preference', limit: 20, filters: { category: ['decision', 'preference'] } },
];
const answers = (target: SearchIndex) => Promise.all(QUERIES.map((q) => target.search(q)));

async function seed(): Promise<void> {
  await write('MEMORY.md', '# Project memory\n\nRelease notes live in docs.\n');
  await write(
    '2026-03-01.md',
    `${unit(1, 'Use pnpm workspace with one lockfile.')}${unit(2, 'Deploy with a canary.')}`,
  );
  await write('threads/main.md', 'Thread notes about the release and the otter.\n');
}

describe('search index: incremental refresh', () => {
  it('indexes new files, then skips unchanged ones without reading them', async () => {
    await seed();
    expect(await index.refresh()).toMatchObject({
      filesScanned: 3,
      filesRead: 3,
      filesChanged: 3,
      filesRemoved: 0,
      chunksWritten: 4,
    });
    expect(await index.refresh()).toMatchObject({
      filesScanned: 3,
      filesRead: 0,
      filesChanged: 0,
      filesRemoved: 0,
      chunksWritten: 0,
    });
  });

  it('a refresh with nothing changed writes nothing to the database', async () => {
    await seed();
    await index.refresh();
    const fingerprint = async () => {
      const dir = cairnIndexPath(project.root);
      const parts = await Promise.all(
        ['search.sqlite', 'search.sqlite-wal'].map((name) =>
          readFile(join(dir, name)).catch(() => Buffer.alloc(0)),
        ),
      );
      return parts.map((bytes) => createHash('sha256').update(bytes).digest('hex'));
    };
    const before = await fingerprint();
    await index.refresh();
    await index.search({ query: 'pnpm' });
    expect(await fingerprint()).toEqual(before);
  });

  it('re-chunks only the changed file, updates the stat of a touched one, drops a removed one', async () => {
    await seed();
    await index.refresh();
    clock += 10;
    await utimes(join(memoryWorkspacePath(project.root), 'MEMORY.md'), clock, clock);
    expect(await index.refresh()).toMatchObject({
      filesRead: 1,
      filesChanged: 0,
      chunksWritten: 0,
    });
    expect(await index.refresh()).toMatchObject({ filesRead: 0 });

    await write('2026-03-01.md', `${unit(1, 'Use pnpm workspace with one lockfile.')}`);
    expect(await index.refresh()).toMatchObject({
      filesRead: 1,
      filesChanged: 1,
      filesRemoved: 0,
      chunksWritten: 1,
    });
    expect(await index.search({ query: 'canary' })).toEqual([]);

    await unlink(join(memoryWorkspacePath(project.root), 'threads/main.md'));
    expect(await index.refresh()).toMatchObject({
      filesScanned: 2,
      filesRemoved: 1,
      chunksWritten: 0,
    });
    expect(await index.search({ query: 'otter' })).toEqual([]);
  });

  it('gives exactly the same answers after several edits as a fresh rebuild', async () => {
    await seed();
    await index.refresh();
    await write(
      '2026-03-02.md',
      `Notes about the release.\n\n----\n\nRollback plan: deploy the previous canary.\n${unit(3, 'Prefer small PRs.', { category: 'preference' })}`,
    );
    await index.search({ query: 'release' });
    await write(
      '2026-03-01.md',
      `${unit(1, 'Use pnpm workspace with one lockfile.')}${unit(4, 'Otter is the codename.', { review: 'deprecated' })}`,
    );
    await write(
      'threads/side.md',
      `${unit(5, 'Canary deploy first').split('\n').slice(0, 2).join('\n')}\n`,
    );
    await index.refresh();
    await unlink(join(memoryWorkspacePath(project.root), 'threads/main.md'));
    await write(
      'MEMORY.md',
      '# Project memory\n\nRelease notes live in docs. Decision log below.\n',
    );
    const incremental = await answers(index);
    expect(incremental.flat().length).toBeGreaterThanOrEqual(7);

    expect(await index.rebuild()).toMatchObject({ filesRead: 4, filesChanged: 4 });
    expect(await answers(index)).toEqual(incremental);
  });

  it('rebuilds from the markdown after .cairn/index/ is deleted, with the same answers', async () => {
    await seed();
    const before = await answers(index);
    await rm(cairnIndexPath(project.root), { recursive: true });
    expect(await answers(index)).toEqual(before);
    expect(await index.refresh()).toMatchObject({ filesRead: 0 });
    index.close();
    await rm(cairnIndexPath(project.root), { recursive: true });
    index = openSearchIndex(project.root);
    expect(await index.refresh()).toMatchObject({ filesChanged: 3 });
    expect(await answers(index)).toEqual(before);
  });

  it('replaces a damaged database file and rebuilds it', async () => {
    await seed();
    const before = await answers(index);
    index.close();
    await rm(cairnIndexPath(project.root), { recursive: true });
    await mkdir(cairnIndexPath(project.root), { recursive: true });
    await writeFile(
      join(cairnIndexPath(project.root), 'search.sqlite'),
      'not a database'.repeat(99),
    );
    index = openSearchIndex(project.root);
    expect(await answers(index)).toEqual(before);
  });

  it('answers concurrent searches consistently, indexing each file once', async () => {
    await seed();
    const results = await Promise.all([answers(index), answers(index), answers(index)]);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(await index.refresh()).toMatchObject({ filesRead: 0, chunksWritten: 0 });
  });
});

describe('search index: schema version', () => {
  it('drops and rebuilds an index written with other chunking settings', async () => {
    await seed();
    await index.refresh();
    index.close();
    index = openSearchIndex(project.root, { chunk: { maxTokens: 50 } });
    expect(await index.refresh()).toMatchObject({ filesRead: 3, filesChanged: 3 });
    index.close();
    index = openSearchIndex(project.root);
    expect(await index.refresh()).toMatchObject({ filesChanged: 3 });
    await writeFile(join(memoryWorkspacePath(project.root), 'DREAMS.md'), 'otter dreams\n');
    expect((await index.search({ query: 'otter dreams' }))[0]?.path).toBe('DREAMS.md');
  });
});

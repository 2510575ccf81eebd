import { existsSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ATOMIC_TEMP_PREFIX,
  cairnIndexPath,
  listMemoryFiles,
  memoryWorkspacePath,
} from '@cairn/core';
import { describeMemoryBackend, expectCode, makeTempProject, snapshotTree } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFileBackend,
  fileCapabilities,
  openSearchIndex,
  SEARCH_INDEX_FILENAME,
} from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

describeMemoryBackend({
  name: 'file',
  capabilities: fileCapabilities,
  create: () => createFileBackend(),
  processFactory: {
    module: new URL('../dist/index.js', import.meta.url).href,
    exportName: 'createFileBackend',
  },
});

describe('file backend over the layered workspace', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ root, cleanup } = await makeTempProject());
    await mkdir(join(memoryWorkspacePath(root), 'threads'), { recursive: true });
  });
  afterEach(() => cleanup());

  it('searches daily files and thread heads, and leaves markers out of snippets', async () => {
    const workspace = memoryWorkspacePath(root);
    await writeFile(
      join(workspace, '2026-03-01.md'),
      '<!-- cairn:memory:item:start memory_id=UNIT:1 -->\nWe chose pnpm for the monorepo.\n<!-- cairn:memory:item:end -->\n',
    );
    await writeFile(
      join(workspace, 'threads', 'main.md'),
      '# main\n\nStatus: migrating to pnpm.\n',
    );
    await writeFile(join(workspace, 'notes.txt'), 'pnpm outside the allowed names\n');
    const hits = await createFileBackend().search!(root, { query: 'pnpm' });
    expect(hits.map((h) => h.path).sort()).toEqual(['2026-03-01.md', 'threads/main.md']);
    for (const hit of hits) expect(hit.snippet).not.toContain('cairn:memory');
  });

  it('get refuses a link that leaves the workspace and changes nothing', async () => {
    const outside = await makeTempProject('cairn-outside-');
    await writeFile(join(outside.root, 'secret.md'), 'secret\n');
    await symlink(join(outside.root, 'secret.md'), join(memoryWorkspacePath(root), 'DREAMS.md'));
    const before = await snapshotTree(root);
    await expectCode(createFileBackend().get!(root, { path: 'DREAMS.md' }), 'INVALID_PATH');
    expect(await snapshotTree(root)).toEqual(before);
    await outside.cleanup();
  });

  it('get reads a daily file by line range', async () => {
    await writeFile(join(memoryWorkspacePath(root), '2026-03-02.md'), 'a\nb\nc\n');
    const backend = createFileBackend({ getMaxLines: 2 });
    const result = await backend.get!(root, { path: '2026-03-02.md', startLine: 2, lineCount: 5 });
    expect(result).toMatchObject({ content: 'b\nc', startLine: 2, endLine: 3, truncated: false });
  });
});

describe('file backend search through the index', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ root, cleanup } = await makeTempProject());
    await writeWorkspaceFile(
      root,
      '2026-03-01.md',
      `${unit(1, 'We chose pnpm for the monorepo.')}${unit(2, 'Old pnpm hack.', { review: 'deprecated' })}Raw pnpm note.\n`,
    );
  });
  afterEach(() => cleanup());

  it('returns units with their metadata, leaves deprecated ones out, and keeps the index on disk', async () => {
    const backend = createFileBackend();
    const hits = await backend.search!(root, { query: 'pnpm monorepo' });
    expect(hits.map((h) => [h.kind, h.memoryId])).toEqual([
      ['UNIT', unitId(1)],
      ['RAW', undefined],
    ]);
    expect(hits[0]).toMatchObject({ category: 'decision', createdAt: '2026-03-01T10:00:00.000Z' });
    expect(backend.warnings).toEqual([]);
    expect(existsSync(join(cairnIndexPath(root), SEARCH_INDEX_FILENAME))).toBe(true);
    const filtered = await backend.search!(root, {
      query: 'pnpm',
      filters: { review: ['deprecated'] },
    });
    expect(filtered.map((h) => h.memoryId)).toEqual([unitId(2)]);
  });

  it('sees edits at once and rebuilds after .cairn/index/ is deleted', async () => {
    const backend = createFileBackend();
    const before = await backend.search!(root, { query: 'pnpm' });
    await writeWorkspaceFile(root, 'threads/main.md', 'pnpm thread.\n');
    const after = await backend.search!(root, { query: 'pnpm' });
    expect(after.map((h) => h.path)).toContain('threads/main.md');
    await rm(cairnIndexPath(root), { recursive: true });
    expect(await backend.search!(root, { query: 'pnpm' })).toEqual(after);
    expect(before.length).toBe(after.length - 1);
  });

  it('keeps answering after another connection rebuilds the index (cairn reindex)', async () => {
    const backend = createFileBackend();
    const before = await backend.search!(root, { query: 'pnpm monorepo' });
    const other = openSearchIndex(root);
    expect(await other.rebuild()).toMatchObject({ filesChanged: 1, chunksWritten: 3 });
    other.close();
    expect(await backend.search!(root, { query: 'pnpm monorepo' })).toEqual(before);
    expect(backend.warnings).toEqual([]);
  });

  it('indexes exactly the files listMemoryFiles lists, and neither follows a link', async () => {
    const workspace = memoryWorkspacePath(root);
    await writeWorkspaceFile(root, 'threads/main.md', 'okapi thread\n');
    await writeWorkspaceFile(root, 'DREAMS.md', 'okapi dream\n');
    await writeFile(join(workspace, 'notes.md'), 'okapi not allowed\n');
    await writeFile(join(workspace, `${ATOMIC_TEMP_PREFIX}MEMORY.md.1.x`), 'okapi partial\n');
    await mkdir(join(workspace, '2026-01-01.md'));
    await writeFile(join(workspace, '2026-01-01.md', 'x.md'), 'okapi in a folder\n');
    const hits = await createFileBackend().search!(root, { query: 'okapi' });
    const listed = (await listMemoryFiles(root)).map((f) => f.path);
    expect(hits.map((h) => h.path).sort()).toEqual(['DREAMS.md', 'threads/main.md']);
    expect(hits.every((h) => listed.includes(h.path))).toBe(true);
    // A link, even to a file of the workspace, is refused by both, never skipped or followed.
    await symlink(join(workspace, 'DREAMS.md'), join(workspace, 'memory-audit.md'));
    const refused = {
      code: 'INVALID_PATH',
      details: expect.objectContaining({ reason: 'symlink' }),
    };
    await expect(createFileBackend().search!(root, { query: 'okapi' })).rejects.toMatchObject(
      refused,
    );
    await expect(listMemoryFiles(root)).rejects.toMatchObject(refused);
  });

  it('falls back to the plain scan with a warning when the index cannot be opened', async () => {
    await writeFile(cairnIndexPath(root), 'a file where the index folder should be');
    const told: string[] = [];
    const backend = createFileBackend({ onWarning: (message) => told.push(message) });
    const hits = await backend.search!(root, { query: 'pnpm monorepo' });
    expect(hits[0]).toMatchObject({ kind: 'RAW', path: '2026-03-01.md' });
    expect(hits[0]!.snippet).toContain('We chose pnpm for the monorepo.');
    await backend.search!(root, { query: 'pnpm' });
    expect(told).toHaveLength(1);
    expect(backend.warnings).toEqual(told);
    expect(told[0]).toMatch(/plain keyword scan/);
  });

  it('uses the plain scan and creates no index when searchIndex is false', async () => {
    const backend = createFileBackend({ searchIndex: false });
    expect((await backend.search!(root, { query: 'pnpm' })).length).toBeGreaterThan(0);
    expect(existsSync(cairnIndexPath(root))).toBe(false);
  });

  it('creates no index for a project without a workspace', async () => {
    const empty = await makeTempProject();
    await mkdir(join(empty.root, '.cairn'));
    const before = await snapshotTree(empty.root);
    expect(await createFileBackend().search!(empty.root, { query: 'pnpm' })).toEqual([]);
    expect(await snapshotTree(empty.root)).toEqual(before);
    await empty.cleanup();
  });
});

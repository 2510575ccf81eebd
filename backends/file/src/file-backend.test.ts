import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { describeMemoryBackend, expectCode, makeTempProject, snapshotTree } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileBackend, fileCapabilities } from './index';

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

import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath, serializeUnit } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../index';
import { watchWorkspace } from './workspace-watch';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const open = () =>
  openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC' },
    now: () => new Date('2026-04-22T10:00:00.000Z'),
  });
const workspaceFile = (name: string) => join(memoryWorkspacePath(project.root), name);
const unitBlock = (n: number, text: string) =>
  serializeUnit({
    memoryId: `UNIT:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    text,
    category: 'decision',
    review: 'approved',
    createdAt: `2026-04-0${n}T10:00:00.000Z`,
    updatedAt: `2026-04-0${n}T10:00:00.000Z`,
  });
const texts = async (cairn: Awaited<ReturnType<typeof open>>) =>
  (await cairn.list()).map((u) => u.text);

describe('a long-lived unit store sees every change to .cairn/memory/', () => {
  it('sees a file written by hand in place, a new file, and a deleted file, on the next call', async () => {
    const cairn = await open();
    await cairn.init();
    await cairn.add({ text: 'The staging cluster is called kestrel.' });
    expect(await texts(cairn)).toEqual(['The staging cluster is called kestrel.']);
    // An editor that writes in place (no rename): only the file's own events say so.
    await writeFile(
      workspaceFile('2026-04-22.md'),
      `# 2026-04-22\n\n${unitBlock(2, 'The staging cluster is called osprey.')}\n`,
    );
    expect(await texts(cairn)).toEqual(['The staging cluster is called osprey.']);
    await writeFile(
      workspaceFile('2026-04-01.md'),
      `# 2026-04-01\n\n${unitBlock(1, 'Deploys go out on Tuesdays.')}\n`,
    );
    expect(await texts(cairn)).toEqual([
      'Deploys go out on Tuesdays.',
      'The staging cluster is called osprey.',
    ]);
    await rm(workspaceFile('2026-04-22.md'));
    expect(await texts(cairn)).toEqual(['Deploys go out on Tuesdays.']);
  });

  it('refuses a duplicate of a unit another process (another store) added or a person wrote', async () => {
    const cairn = await open();
    await cairn.init();
    await cairn.add({ text: 'Warm the cache before the first request.' });
    const other = await open();
    await other.add({ text: 'Release notes are written in the changelog folder.' });
    expect(
      await cairn.add({ text: 'Release notes are written in the changelog folder!' }),
    ).toMatchObject({
      action: 'duplicate',
    });
    await writeFile(
      workspaceFile('2026-04-03.md'),
      `# 2026-04-03\n\n${unitBlock(3, 'Ports below 1024 need root on the build hosts.')}\n`,
    );
    expect(
      await cairn.add({ text: 'ports below 1024 need root on the build hosts' }),
    ).toMatchObject({ action: 'duplicate', existing: { path: '2026-04-03.md' } });
    // Many adds later the index still finds the first ones.
    for (let i = 0; i < 30; i += 1) {
      await cairn.add({ text: `Service number ${i} listens on port ${8000 + i}.` });
    }
    expect(await cairn.add({ text: 'Warm the cache before the first request.' })).toMatchObject({
      action: 'duplicate',
    });
    expect(await other.add({ text: 'Service number 7 listens on port 8007.' })).toMatchObject({
      action: 'duplicate',
    });
  });

  it('sees thread head files in a threads folder created after the store started', async () => {
    const cairn = await open();
    await cairn.init();
    expect(await texts(cairn)).toEqual([]);
    await mkdir(workspaceFile('threads'));
    await writeFile(
      workspaceFile('threads/lived-in.main.md'),
      `# Thread\n\n${unitBlock(4, 'The thread keeps its own decisions.')}\n`,
    );
    expect(await texts(cairn)).toEqual(['The thread keeps its own decisions.']);
    await writeFile(
      workspaceFile('threads/lived-in.main.md'),
      `# Thread\n\n${unitBlock(4, 'The thread changed its mind.')}\n`,
    );
    expect(await texts(cairn)).toEqual(['The thread changed its mind.']);
  });
});

describe('watchWorkspace', () => {
  it('asks for a full listing twice (it starts on the second call), then names the files written since', async () => {
    await (await open()).init();
    const watch = watchWorkspace(project.root);
    try {
      expect(await watch.changes()).toBeUndefined();
      expect(await watch.changes()).toBeUndefined();
      watch.note('MEMORY.md');
      await writeFile(workspaceFile('2026-04-05.md'), '# 2026-04-05\n\nnote\n');
      const changed = await watch.changes();
      // The machines that run these tests keep their temp folders on a local Linux filesystem.
      if (process.platform === 'linux') expect(changed).toBeDefined();
      // Where the kernel's events cannot be trusted (not Linux, a network mount) every call lists all.
      if (changed) expect([...changed].sort()).toEqual(['2026-04-05.md', 'MEMORY.md']);
      const none = await watch.changes();
      if (none) expect([...none]).toEqual([]);
    } finally {
      watch.close();
    }
  });

  it('lists everything again after its folder was deleted and made anew', async () => {
    await (await open()).init();
    const watch = watchWorkspace(project.root);
    try {
      await watch.changes();
      await watch.changes();
      if (process.platform === 'linux') expect(await watch.changes()).toEqual(new Set());
      await rm(memoryWorkspacePath(project.root), { recursive: true });
      await (await open()).init();
      expect(await watch.changes()).toBeUndefined();
      // Watching the new folder since that full listing: names again.
      await writeFile(workspaceFile('2026-04-06.md'), '# 2026-04-06\n\nnote\n');
      const changed = await watch.changes();
      if (process.platform === 'linux') expect(changed).toEqual(new Set(['2026-04-06.md']));
    } finally {
      watch.close();
    }
  });
});

describe('the search index of a long-lived engine follows the workspace watch', () => {
  const hits = async (cairn: Awaited<ReturnType<typeof open>>, query: string) =>
    (await cairn.search({ query })).map((hit) => hit.path);

  it('finds text written by hand in place, in a new file, and forgets a deleted file', async () => {
    const cairn = await open();
    await cairn.init();
    await cairn.add({ text: 'The kestrel cluster hosts staging.' });
    expect(await hits(cairn, 'kestrel')).toEqual(['2026-04-22.md']);
    await writeFile(
      workspaceFile('2026-04-22.md'),
      `# 2026-04-22\n\n${unitBlock(2, 'The osprey cluster hosts staging.')}\n`,
    );
    expect(await hits(cairn, 'kestrel')).toEqual([]);
    expect(await hits(cairn, 'osprey')).toEqual(['2026-04-22.md']);
    await writeFile(
      workspaceFile('2026-04-01.md'),
      '# 2026-04-01\n\nThe osprey runbook lives in ops.\n',
    );
    expect((await hits(cairn, 'osprey')).sort()).toEqual(['2026-04-01.md', '2026-04-22.md']);
    await rm(workspaceFile('2026-04-22.md'));
    expect(await hits(cairn, 'osprey')).toEqual(['2026-04-01.md']);
    // Another engine on the same project writes; this one finds it.
    await (await open()).add({ text: 'The heron cluster hosts production.' });
    expect(await hits(cairn, 'heron')).toEqual(['2026-04-22.md']);
  });
});

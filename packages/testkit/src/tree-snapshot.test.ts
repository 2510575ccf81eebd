import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempProject, snapshotTree } from './tree-snapshot';

describe('snapshotTree', () => {
  it('changes when a file, a folder or a link changes, and not otherwise', async () => {
    const project = await makeTempProject();
    const { root } = project;
    await mkdir(join(root, 'a'));
    await writeFile(join(root, 'a', 'f.md'), 'one');
    const first = await snapshotTree(root);
    expect(await snapshotTree(root)).toEqual(first);
    await writeFile(join(root, 'a', 'f.md'), 'two');
    const second = await snapshotTree(root);
    expect(second).not.toEqual(first);
    await symlink('f.md', join(root, 'a', 'link'));
    expect(await snapshotTree(root)).not.toEqual(second);
    expect(Object.keys(await snapshotTree(root))).toEqual(['', 'a', 'a/f.md', 'a/link']);
    await project.cleanup();
  });
});

import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderSource } from './sources';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

describe('mem0 pool folder source', () => {
  it('lists markdown by the file index rules: hidden entries and links skipped', async () => {
    const folder = join(project.root, 'notes');
    await mkdir(join(folder, 'sub'), { recursive: true });
    await mkdir(join(folder, '.hidden'));
    await writeFile(join(folder, 'a.md'), 'alpha\n');
    await writeFile(join(folder, 'sub', 'b.md'), 'beta\n');
    await writeFile(join(folder, '.hidden', 'c.md'), 'hidden\n');
    await writeFile(join(project.root, 'outside.md'), 'outside\n');
    await symlink(join(project.root, 'outside.md'), join(folder, 'link.md'));
    await symlink(join(folder, 'sub'), join(folder, 'linked-dir'));
    const source = folderSource(folder);
    expect((await source.list()).map((file) => file.path)).toEqual(['a.md', 'sub/b.md']);
    expect(await source.read('sub/b.md')).toBe('beta\n');
  });
});

import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SEARCH_INDEX_FILENAME } from '@cairn/backend-file';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_DB_FILENAME } from '../history';
import { LINEAGE_DB_FILENAME } from '../lineage';
import { openCairn } from '../open-cairn';
import { assertProjectLayout, LAYOUT_DATABASES } from './project-layout';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const refusal = (options?: { memoryFiles?: boolean }) => {
  try {
    assertProjectLayout(project.root, options);
  } catch (error) {
    return (error as { code?: string; details?: { reason?: string } }) ?? undefined;
  }
  return undefined;
};

describe('assertProjectLayout', () => {
  it('names the databases the stores open', () => {
    expect(LAYOUT_DATABASES).toEqual([
      `.cairn/state/${LINEAGE_DB_FILENAME}`,
      '.cairn/state/heads.db',
      `.cairn/state/${HISTORY_DB_FILENAME}`,
      `.cairn/index/${SEARCH_INDEX_FILENAME}`,
    ]);
  });

  it('passes a project without .cairn/ and a real one', async () => {
    expect(refusal()).toBeUndefined();
    await (await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') })).init();
    expect(refusal()).toBeUndefined();
  });

  it('refuses a link at a memory file, but not one with a name Cairn never reads', async () => {
    await (await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') })).init();
    const memory = join(project.root, '.cairn/memory');
    await symlink('/etc/hostname', join(memory, 'notes.md'));
    expect(refusal()).toBeUndefined();
    await mkdir(join(memory, 'threads'));
    await writeFile(join(memory, 'threads/main.md'), 'x');
    await symlink('main.md', join(memory, 'threads/claude.main.md'));
    expect(refusal()).toMatchObject({ code: 'INVALID_PATH', details: { reason: 'symlink' } });
  });

  it('on the hook path checks the folders and MEMORY.md, not each memory file', async () => {
    await (await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') })).init();
    const memory = join(project.root, '.cairn/memory');
    await symlink('MEMORY.md', join(memory, '2026-01-01.md'));
    const hookPath = { memoryFiles: false };
    expect(refusal(hookPath)).toBeUndefined();
    expect(refusal()).toMatchObject({ code: 'INVALID_PATH' });
    await symlink(project.root, join(memory, 'threads'));
    expect(refusal(hookPath)).toMatchObject({ details: { reason: 'symlink' } });
  });
});

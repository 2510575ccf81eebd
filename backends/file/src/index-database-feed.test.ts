import { lstatSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followSourceChanges, type SourceChangeFeed } from './index-database';
import { ProjectSearchIndex } from './search-index';
import { writeWorkspaceFile } from './test-fixtures';

let project: TempProject;
let index: ProjectSearchIndex;
beforeEach(async () => {
  project = await makeTempProject();
  index = new ProjectSearchIndex(project.root);
});
afterEach(async () => {
  index.close();
  await project.cleanup();
});

/** A feed that names what the test says changed, or asks for a full listing. */
function feed(): SourceChangeFeed & { next: Set<string> | undefined } {
  const workspace = memoryWorkspacePath(project.root);
  return {
    next: undefined,
    async changes() {
      const answer = this.next;
      this.next = new Set();
      return answer;
    },
    stat(path) {
      const stat = lstatSync(join(workspace, path), { throwIfNoEntry: false });
      return stat?.isFile() ? { path, bytes: stat.size, mtimeMs: stat.mtimeMs } : undefined;
    },
  };
}

describe('a refresh that follows a change feed', () => {
  it('lists every file first, then looks only at the files the feed names', async () => {
    await writeWorkspaceFile(project.root, '2026-01-01.md', '# 2026-01-01\n\nalpha note\n');
    await writeWorkspaceFile(project.root, '2026-01-02.md', '# 2026-01-02\n\nbeta note\n');
    const changes = feed();
    followSourceChanges(index.workspaceSource, changes);
    expect(await index.refresh()).toMatchObject({ filesScanned: 2, filesRead: 2 });
    expect(await index.refresh()).toMatchObject({ filesScanned: 0, filesRead: 0 });
    await writeFile(
      join(memoryWorkspacePath(project.root), '2026-01-02.md'),
      '# 2026-01-02\n\ngamma note\n',
    );
    changes.next = new Set(['2026-01-02.md', '2026-01-03.md']);
    expect(await index.refresh()).toMatchObject({ filesScanned: 1, filesRead: 1, filesChanged: 1 });
    expect((await index.search({ query: 'gamma' })).map((hit) => hit.path)).toEqual([
      '2026-01-02.md',
    ]);
    expect(await index.search({ query: 'beta' })).toEqual([]);
    expect((await index.search({ query: 'alpha' })).map((hit) => hit.path)).toEqual([
      '2026-01-01.md',
    ]);
  });

  it('drops a file the feed names that is gone, and lists everything when the feed asks', async () => {
    await writeWorkspaceFile(project.root, '2026-01-01.md', '# 2026-01-01\n\nalpha note\n');
    const changes = feed();
    followSourceChanges(index.workspaceSource, changes);
    await index.refresh();
    await writeWorkspaceFile(project.root, '2026-01-04.md', '# 2026-01-04\n\ndelta note\n');
    // A file the feed does not name is not looked at; a feed that lost events answers undefined.
    expect(await index.search({ query: 'delta' })).toEqual([]);
    changes.next = undefined;
    expect((await index.search({ query: 'delta' })).map((hit) => hit.path)).toEqual([
      '2026-01-04.md',
    ]);
    await rm(join(memoryWorkspacePath(project.root), '2026-01-01.md'));
    changes.next = new Set(['2026-01-01.md']);
    expect(await index.refresh()).toMatchObject({ filesRemoved: 1 });
    expect(await index.search({ query: 'alpha' })).toEqual([]);
  });
});

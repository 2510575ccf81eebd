import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../index';
import { type ParseCache, scanWorkspace } from './workspace-scan';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
  await openCairn(project.root, { env: {} }).init();
});
afterEach(() => project.cleanup());

describe('scanWorkspace with a parse cache', () => {
  it('reuses the parse of an unchanged file, and follows edits and deletions', async () => {
    const workspace = memoryWorkspacePath(project.root);
    await writeFile(join(workspace, '2026-03-01.md'), '# 2026-03-01\n\nfirst note\n');
    await writeFile(join(workspace, '2026-03-02.md'), '# 2026-03-02\n\nsecond note\n');
    const cache: ParseCache = new Map();
    const first = await scanWorkspace(project.root, cache);
    const again = await scanWorkspace(project.root, cache);
    const byPath = (docs: typeof first, path: string) => docs.find((d) => d.path === path);
    expect(byPath(again, '2026-03-01.md')).toBe(byPath(first, '2026-03-01.md'));
    await writeFile(join(workspace, '2026-03-01.md'), '# 2026-03-01\n\nedited note\n');
    await rm(join(workspace, '2026-03-02.md'));
    const after = await scanWorkspace(project.root, cache);
    expect(JSON.stringify(byPath(after, '2026-03-01.md'))).toContain('edited note');
    expect(byPath(after, '2026-03-02.md')).toBeUndefined();
    expect(cache.has('2026-03-02.md')).toBe(false);
  });
});

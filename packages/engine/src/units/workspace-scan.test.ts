import { rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../index';
import { type ParseCache, scanWorkspace } from './workspace-scan';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
  await (await openCairn(project.root, { env: {} })).init();
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

  it('re-reads a file whose size and mtime did not change when it changed right before the read', async () => {
    const file = join(memoryWorkspacePath(project.root), '2026-03-03.md');
    await writeFile(file, '# 2026-03-03\n\nnote alpha\n');
    const cache: ParseCache = new Map();
    await scanWorkspace(project.root, cache);
    const { mtime } = await stat(file);
    // Same size, same mtime: only the racy-read rule can notice this edit.
    await writeFile(file, '# 2026-03-03\n\nnote omega\n');
    await utimes(file, mtime, mtime);
    const after = await scanWorkspace(project.root, cache);
    expect(JSON.stringify(after.find((d) => d.path === '2026-03-03.md'))).toContain('omega');
  });

  it('skips reading a file whose size and mtime are unchanged since well before the read', async () => {
    const file = join(memoryWorkspacePath(project.root), '2026-03-04.md');
    await writeFile(file, '# 2026-03-04\n\nnote alpha\n');
    const old = new Date(Date.now() - 60_000);
    await utimes(file, old, old);
    const cache: ParseCache = new Map();
    const first = await scanWorkspace(project.root, cache);
    const again = await scanWorkspace(project.root, cache);
    const pick = (docs: typeof first) => docs.find((d) => d.path === '2026-03-04.md');
    expect(pick(again)).toBe(pick(first));
    // Any change of mtime (as every write makes) is read again.
    await writeFile(file, '# 2026-03-04\n\nnote omega\n');
    expect(JSON.stringify(pick(await scanWorkspace(project.root, cache)))).toContain('omega');
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempProject } from './tree-snapshot';
import { filesUnder, runToExit, trimCaptured } from './trim-captured';

describe('capture helpers', () => {
  it('cuts long strings, drops keys and replaces the temp folder', () => {
    const captured = {
      cwd: '/tmp/x-123/project',
      instructions: 'y'.repeat(301),
      trace: { id: 1 },
      nested: [{ path: '/tmp/x-123/home/a.jsonl', short: 'kept' }],
    };
    expect(
      trimCaptured(captured, { temp: '/tmp/x-123', placeholder: '/tmp/cap', drop: ['trace'] }),
    ).toEqual({
      cwd: '/tmp/cap/project',
      instructions: '(trimmed)',
      nested: [{ path: '/tmp/cap/home/a.jsonl', short: 'kept' }],
    });
  });

  it('lists every file below a folder', async () => {
    const project = await makeTempProject();
    try {
      await mkdir(join(project.root, 'a/b'), { recursive: true });
      await writeFile(join(project.root, 'a/b/c.jsonl'), '');
      await writeFile(join(project.root, 'a/d.txt'), '');
      expect(filesUnder(join(project.root, 'a')).sort()).toEqual([
        join(project.root, 'a/b/c.jsonl'),
        join(project.root, 'a/d.txt'),
      ]);
    } finally {
      await project.cleanup();
    }
  });

  it('runs a command to its exit and rejects with its stderr', async () => {
    const options = { env: process.env, cwd: process.cwd() };
    await expect(runToExit(process.execPath, ['-e', '0'], options)).resolves.toBeUndefined();
    await expect(
      runToExit(process.execPath, ['-e', 'console.error("no"); process.exit(3)'], options),
    ).rejects.toThrow('no');
  });
});

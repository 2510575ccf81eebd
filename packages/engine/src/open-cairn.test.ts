import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findProjectRoot, openCairn } from './index';

let project: TempProject;
const env = {};
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const open = (overrides = {}) =>
  openCairn(project.root, { env, homeDir: join(project.root, 'home'), overrides });

describe('openCairn', () => {
  it('init bootstraps the workspace and .gitignore, idempotently', async () => {
    const cairn = await open();
    expect((await cairn.init()).created).toEqual([
      '.cairn/memory/MEMORY.md',
      '.cairn/memory/DREAMS.md',
      '.cairn/.gitignore',
    ]);
    const gitignore = await readFile(join(project.root, '.cairn', '.gitignore'), 'utf8');
    expect(gitignore).toContain('state/\nindex/\nmemory/threads/\n');
    const before = await snapshotTree(project.root);
    expect((await cairn.init()).created).toEqual([]);
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('init completes an existing .gitignore without dropping the user lines', async () => {
    await mkdir(join(project.root, '.cairn'), { recursive: true });
    await writeFile(join(project.root, '.cairn', '.gitignore'), 'scratch/\nindex/');
    await (await open()).init();
    expect(await readFile(join(project.root, '.cairn', '.gitignore'), 'utf8')).toBe(
      'scratch/\nindex/\nstate/\nmemory/threads/\n',
    );
  });

  it('reads and writes MEMORY.md through the file backend by default', async () => {
    const cairn = await open();
    await cairn.init();
    await cairn.write('# Hello\n');
    expect((await cairn.read()).content).toBe('# Hello\n');
    const status = await cairn.status();
    expect(status.backend).toMatchObject({ requested: 'file', resolved: 'file' });
    expect(status.initialized).toBe(true);
    expect(status.files.map((f) => f.path)).toEqual(['DREAMS.md', 'MEMORY.md']);
  });

  it('falls back to file for an unknown backend type and says so', async () => {
    await mkdir(join(project.root, '.cairn'), { recursive: true });
    await writeFile(
      join(project.root, '.cairn', 'config.json'),
      JSON.stringify({ memoryBackendType: 'future-db', retrievalAdapter: 'nope' }),
    );
    const cairn = await open();
    expect(cairn.backend.type).toBe('file');
    expect(cairn.settings.memoryBackendType).toBe('future-db');
    expect(cairn.warnings.join('\n')).toMatch(/future-db.*using "file"/);
    expect(cairn.warnings.join('\n')).toMatch(/nope/);
  });

  it('the readonly backend refuses writes through the engine', async () => {
    const cairn = await open({ memoryBackendType: 'readonly' });
    await expect(cairn.write('x')).rejects.toMatchObject({ code: 'READ_ONLY' });
  });

  it('finds the project root from a subfolder', async () => {
    await (await open()).init();
    const nested = join(project.root, 'src', 'deep');
    await mkdir(nested, { recursive: true });
    expect(findProjectRoot(nested)).toBe(project.root);
  });
});

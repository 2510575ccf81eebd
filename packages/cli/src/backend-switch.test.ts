import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
const cli = cliRunner(() => project.root);

beforeEach(async () => {
  project = await makeTempProject();
  expect(cli.run(['init']).code).toBe(0);
  expect(cli.run(['add', 'Deploys go through the kestrel pipeline on Fridays.']).code).toBe(0);
});
afterEach(() => project.cleanup());

describe('switching backends in .cairn/config.json', () => {
  it('reindex moves the index over to LanceDB, with progress, and search answers from it', async () => {
    await writeFile(
      join(project.root, '.cairn/config.json'),
      JSON.stringify({ memoryBackendType: 'lancedb' }),
    );
    const reindex = cli.run(['reindex']);
    expect(reindex.code).toBe(0);
    expect(reindex.stderr).toContain('rebuilding the lancedb index');
    expect(reindex.stdout).toContain('reindexed (lancedb)');
    expect(existsSync(join(project.root, '.cairn/index/lancedb'))).toBe(true);
    const search = JSON.parse(cli.run(['search', 'kestrel pipeline', '--json']).stdout);
    expect(search.results[0].snippet).toContain('kestrel pipeline');
    const status = JSON.parse(cli.run(['status', '--json']).stdout);
    expect(status.backend.resolved).toBe('lancedb');
  });

  it('an optional backend that is not installed falls back to file with a warning naming the package', async () => {
    await writeFile(
      join(project.root, '.cairn/config.json'),
      JSON.stringify({ memoryBackendType: 'nosuch' }),
    );
    const search = cli.run(['search', 'kestrel']);
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('kestrel pipeline');
    expect(search.stderr).toContain('memory backend "nosuch" is not registered');
  });
});

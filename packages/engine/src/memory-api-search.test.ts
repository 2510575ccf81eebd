import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, openMemorySearch } from './index';

let project: TempProject;
const options = () => ({ env: {}, homeDir: join(project.root, 'home') });

beforeEach(async () => {
  project = await makeTempProject();
  const cairn = await openCairn(project.root, options());
  await cairn.init();
  await cairn.add({ text: 'Deploys go through the kestrel pipeline on Fridays.' });
  await cairn.add({ text: 'The kestrel dashboard shows every pipeline run.', category: 'fact' });
  await writeFile(
    join(project.root, '.cairn/memory/2025-06-01.md'),
    '# 2025-06-01\n\nThe kestrel cache is warmed at noon.\n',
  );
});
afterEach(() => project.cleanup());

describe('openMemorySearch', () => {
  it('answers as openCairn().search, RAW hits with an id `get` accepts', async () => {
    const request = { query: 'kestrel', limit: 10 };
    const search = await (await openMemorySearch(project.root, options())).search(request);
    expect(search).toEqual(await (await openCairn(project.root, options())).search(request));
    expect(search.map((hit) => hit.kind).sort()).toEqual(['RAW', 'UNIT', 'UNIT']);
    const raw = search.find((hit) => hit.kind === 'RAW')!;
    expect(raw.memoryId).toMatch(/^RAW:2025-06-01\.md#L\d+-L\d+$/);
    const got = await (await openCairn(project.root, options())).get(raw.memoryId!);
    expect(got.text).toContain('kestrel cache');
  });

  it('applies the settings: limits.searchLimit, and filters', async () => {
    await writeFile(
      join(project.root, '.cairn/config.json'),
      JSON.stringify({ limits: { searchLimit: 1 } }),
    );
    const memory = await openMemorySearch(project.root, options());
    expect(memory.settings.limits.searchLimit).toBe(1);
    expect(await memory.search({ query: 'kestrel' })).toHaveLength(1);
    const facts = await memory.search({
      query: 'kestrel',
      limit: 10,
      filters: { category: ['fact'] },
    });
    expect(facts.map((hit) => hit.snippet)).toEqual([expect.stringContaining('dashboard')]);
  });

  it('reports the same fallback warnings as openCairn, and bad input changes nothing', async () => {
    const env = { CAIRN_MEMORY_BACKEND_TYPE: 'weaviate' };
    const memory = await openMemorySearch(project.root, { ...options(), env });
    expect(memory.backend.type).toBe('file');
    expect(memory.warnings).toEqual(
      (await openCairn(project.root, { ...options(), env })).warnings,
    );
    expect(memory.warnings[0]).toMatch(/"weaviate" is not registered/);
    const before = await snapshotTree(project.root);
    await expect(memory.search({ query: '  ' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(memory.search({ query: 'kestrel', limit: 0 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('throws INVALID_CONFIG for a bad config file, naming the key', async () => {
    await writeFile(
      join(project.root, '.cairn/config.json'),
      JSON.stringify({ limits: { searchLimit: 0 } }),
    );
    await expect(openMemorySearch(project.root, options())).rejects.toThrow(
      expect.objectContaining({
        code: 'INVALID_CONFIG',
        message: expect.stringContaining('limits.searchLimit'),
      }),
    );
  });
});

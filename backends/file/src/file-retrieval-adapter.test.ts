import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { expectCode, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileRetrievalAdapter } from './index';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
  const { root } = project;
  await mkdir(memoryWorkspacePath(root), { recursive: true });
  await writeFile(join(memoryWorkspacePath(root), 'MEMORY.md'), 'The deploy uses blue-green.\n');
  for (const [dir, text] of [
    ['docs/warm', 'Warm notes: deploy runbook.\n'],
    ['docs/cold', 'Cold archive: deploy history.\n'],
    ['docs/ops', 'Ops only: deploy keys rotate monthly.\n'],
  ] as const) {
    await mkdir(join(root, dir), { recursive: true });
    await writeFile(join(root, dir, 'notes.md'), text);
  }
});
afterEach(() => project.cleanup());

async function adapterWithPools() {
  const adapter = createFileRetrievalAdapter({ rootDir: project.root });
  await adapter.registerPools([
    { id: 'warm', tier: 'warm', path: 'docs/warm' },
    { id: 'cold', tier: 'cold', path: join(project.root, 'docs/cold') },
    { id: 'ops', tier: 'warm', path: 'docs/ops', roles: ['ops'], agents: ['alice'] },
  ]);
  return adapter;
}

const pools = (results: { metadata?: Record<string, unknown> }[]) =>
  results.map((r) => r.metadata?.poolId).sort();

describe('file retrieval adapter', () => {
  it('recalls hot and warm pools by default, cold only when asked', async () => {
    const adapter = await adapterWithPools();
    expect(pools(await adapter.recall({ agentId: 'bob', query: 'deploy' }))).toEqual([
      'warm',
      'workspace',
    ]);
    const all = await adapter.recall({ agentId: 'bob', query: 'deploy', tiers: ['cold'] });
    expect(pools(all)).toEqual(['cold']);
  });

  it('honours pool agents and roles, pool ids and metadata filters', async () => {
    const adapter = await adapterWithPools();
    const alice = await adapter.recall({ agentId: 'alice', role: 'ops', query: 'deploy' });
    expect(pools(alice)).toEqual(['ops', 'warm', 'workspace']);
    const noRole = await adapter.recall({ agentId: 'alice', query: 'deploy' });
    expect(pools(noRole)).toEqual(['warm', 'workspace']);
    const onlyWarm = await adapter.recall({ agentId: 'bob', query: 'deploy', poolIds: ['warm'] });
    expect(pools(onlyWarm)).toEqual(['warm']);
    const filtered = await adapter.recall({
      agentId: 'bob',
      query: 'deploy',
      filters: { path: 'MEMORY.md' },
    });
    expect(filtered.map((r) => r.snippet)).toEqual(['The deploy uses blue-green.']);
  });

  it('returns an empty list (never fails) when nothing matches', async () => {
    const adapter = await adapterWithPools();
    expect(await adapter.recall({ agentId: 'bob', query: 'zzzz' })).toEqual([]);
    expect((await adapter.status?.())?.ok).toBe(true);
  });

  it('rejects bad pools and queries with INVALID_INPUT', async () => {
    const adapter = createFileRetrievalAdapter({ rootDir: project.root });
    await expectCode(
      adapter.registerPools([{ id: '../x', tier: 'hot', path: '.' }]),
      'INVALID_INPUT',
    );
    await expectCode(adapter.recall({ agentId: '', query: 'x' }), 'INVALID_INPUT');
  });
});

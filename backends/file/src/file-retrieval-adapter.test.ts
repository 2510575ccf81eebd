import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnIndexPath, memoryWorkspacePath } from '@cairn/core';
import {
  describeRetrievalAdapter,
  expectCode,
  makeTempProject,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFileBackend,
  createFileRetrievalAdapter,
  fileRetrievalCapabilities,
  POOL_INDEX_FILENAME,
} from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

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

describe('file retrieval adapter over the index', () => {
  it('recalls workspace units with their metadata and leaves deprecated ones out', async () => {
    await writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      `${unit(1, 'The deploy runs at noon.', { category: 'fact' })}${unit(2, 'Deploy on Fridays.', { review: 'deprecated' })}`,
    );
    const adapter = createFileRetrievalAdapter({ rootDir: project.root });
    const hits = await adapter.recall({ agentId: 'bob', query: 'deploy noon' });
    expect(hits[0]?.metadata).toMatchObject({
      poolId: 'workspace',
      tier: 'hot',
      path: '2026-03-01.md',
      kind: 'UNIT',
      memoryId: unitId(1),
      category: 'fact',
    });
    expect(hits[0]?.snippet).toBe('The deploy runs at noon.');
    expect(hits.map((h) => h.metadata?.memoryId)).not.toContain(unitId(2));
    const old = await adapter.recall({
      agentId: 'bob',
      query: 'deploy',
      filters: { review: 'deprecated' },
    });
    expect(old.map((h) => h.metadata?.memoryId)).toEqual([unitId(2)]);
    const facts = await adapter.recall({
      agentId: 'bob',
      query: 'deploy',
      filters: { category: 'fact', startLine: '1' },
    });
    expect(facts.map((h) => h.metadata?.memoryId)).toEqual([unitId(1)]);
  });

  it('indexes pool folders apart from the workspace and follows their edits', async () => {
    const adapter = await adapterWithPools();
    const search = () => createFileBackend().search!(project.root, { query: 'deploy' });
    const workspaceOnly = await search();
    expect(pools(await adapter.recall({ agentId: 'bob', query: 'runbook' }))).toEqual(['warm']);
    expect(existsSync(join(cairnIndexPath(project.root), POOL_INDEX_FILENAME))).toBe(true);
    // Pool folders live in their own file, so they never change workspace ranking.
    expect(await search()).toEqual(workspaceOnly);
    await writeFile(join(project.root, 'docs/warm/more.md'), 'Second runbook page.\n');
    await rm(join(project.root, 'docs/warm/notes.md'));
    const after = await adapter.recall({ agentId: 'bob', query: 'runbook' });
    expect(after.map((h) => h.metadata?.path)).toEqual(['more.md']);
    expect(after[0]?.uri).toBe(join(project.root, 'docs/warm/more.md'));
  });

  it('scans without creating an index when the workspace does not exist', async () => {
    await rm(memoryWorkspacePath(project.root), { recursive: true });
    const adapter = await adapterWithPools();
    expect(pools(await adapter.recall({ agentId: 'bob', query: 'deploy' }))).toEqual(['warm']);
    expect(existsSync(cairnIndexPath(project.root))).toBe(false);
  });
});

describeRetrievalAdapter({
  name: 'file',
  capabilities: fileRetrievalCapabilities,
  create: (rootDir) => createFileRetrievalAdapter({ rootDir }),
});

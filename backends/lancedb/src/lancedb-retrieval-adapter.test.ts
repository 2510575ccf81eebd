import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { memoryWorkspacePath } from '@cairn/core';
import { describeRetrievalAdapter, expectCode, tempProjectPerTest } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import {
  createLancedbRetrievalAdapter,
  type LancedbRetrievalAdapter,
  lancedbRetrievalAdapter,
  lancedbRetrievalCapabilities,
  loadLancedb,
} from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

describeRetrievalAdapter({
  name: 'lancedb',
  capabilities: lancedbRetrievalCapabilities,
  create: (rootDir) => createLancedbRetrievalAdapter({ rootDir }),
  cleanup: (adapter) => (adapter as LancedbRetrievalAdapter).close(),
});

async function writeDoc(root: string, path: string, text: string): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

describe('lancedb retrieval adapter', () => {
  const project = tempProjectPerTest((root) =>
    writeWorkspaceFile(root, 'MEMORY.md', '# Project memory\n\nNotes live here.\n'),
  );
  const open = (options: Record<string, unknown> = {}) =>
    project.closeAfter(
      createLancedbRetrievalAdapter(
        { rootDir: project.root, options },
        { fallback: createFileRetrievalAdapter },
      ),
    );

  it('is registered as "lancedb" with semantic and keyword recall', () => {
    expect(lancedbRetrievalAdapter.id).toBe('lancedb');
    expect(lancedbRetrievalAdapter.capabilities).toEqual({
      semantic: true,
      keyword: true,
      graph: false,
    });
  });

  it('hybrid recall finds a paraphrase that pure keyword search misses', async () => {
    await writeDoc(project.root, 'docs/build.md', 'Each service ships a Dockerfile built in CI.\n');
    await writeDoc(project.root, 'docs/db.md', 'Postgres replication runs with two standbys.\n');
    const pools = [{ id: 'docs', tier: 'hot' as const, path: 'docs' }];
    // No word of the query is in the document, even stemmed: only the vectors connect them.
    const query = { agentId: 'bob', query: 'postgresql replicas' };
    const keyword = open({ searchMode: 'keyword' });
    await keyword.registerPools(pools);
    expect((await keyword.recall(query)).map((r) => r.metadata?.path)).not.toContain('db.md');
    const hybrid = open();
    await hybrid.registerPools(pools);
    const results = await hybrid.recall(query);
    expect(results[0]?.metadata).toMatchObject({ path: 'db.md', poolId: 'docs' });
    expect(results.map((r) => r.metadata?.path)).not.toContain('build.md');
    expect(results[0]?.metadata?.similarity).toBeGreaterThan(0.2);
  });

  it('filters recall by category and review state, and by other metadata after the query', async () => {
    await writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      [
        unit(1, 'Deploys use the blue-green pipeline.', { category: 'decision' }),
        unit(2, 'Deploys once used a canary pipeline.', {
          category: 'decision',
          review: 'deprecated',
        }),
        unit(3, 'Pipeline runs take nine minutes.', { category: 'fact', review: 'draft' }),
      ].join('\n'),
    );
    const adapter = open();
    const ids = async (filters: Record<string, string | string[]>) =>
      (await adapter.recall({ agentId: 'bob', query: 'deploys pipeline', filters }))
        .map((r) => r.metadata?.memoryId)
        .sort();
    expect(await ids({ category: 'decision' })).toEqual([unitId(1)]);
    expect(await ids({ review: ['deprecated', 'draft'] })).toEqual([unitId(2), unitId(3)]);
    expect(await ids({ startLine: '1' })).toEqual([unitId(1)]);
  });

  it('upserts and deletes by chunk id as pool files change', async () => {
    await writeDoc(project.root, 'kb/a.md', '# A\n\nThe zephyrine cache warms at boot.\n');
    await writeDoc(project.root, 'kb/b.md', '# B\n\nThe zephyrine cache is sharded.\n');
    const adapter = open();
    await adapter.registerPools([{ id: 'kb', tier: 'warm', path: 'kb' }]);
    await adapter.indexPaths([join(project.root, 'kb')]);
    expect((await adapter.recall({ agentId: 'x', query: 'zephyrine' })).length).toBe(2);
    await writeDoc(project.root, 'kb/a.md', '# A\n\nNothing to see.\n');
    const { rm } = await import('node:fs/promises');
    await rm(join(project.root, 'kb/b.md'));
    expect(await adapter.recall({ agentId: 'x', query: 'zephyrine' })).toEqual([]);
  });

  it('rewrites pool tier and agents when a pool is registered again', async () => {
    await writeDoc(project.root, 'team/notes.md', '# Notes\n\nThe quasarine rollout is paused.\n');
    const adapter = open();
    await adapter.registerPools([{ id: 'team', tier: 'warm', path: 'team' }]);
    expect(await adapter.recall({ agentId: 'bob', query: 'quasarine' })).toHaveLength(1);
    await adapter.registerPools([{ id: 'team', tier: 'cold', path: 'team', agents: ['alice'] }]);
    expect(await adapter.recall({ agentId: 'bob', query: 'quasarine', tiers: ['cold'] })).toEqual(
      [],
    );
    const alice = await adapter.recall({ agentId: 'alice', query: 'quasarine', tiers: ['cold'] });
    expect(alice.map((r) => r.metadata?.tier)).toEqual(['cold']);
  });

  it('builds the IVF_PQ vector index once the table passes the threshold', async () => {
    const lines = Array.from(
      { length: 300 },
      (_, i) => `Note ${i}: service ${i % 17} owns queue ${i}.`,
    );
    await writeDoc(project.root, 'big/notes.md', lines.join('\n\n----\n\n'));
    const adapter = open({ vectorIndexThreshold: 256 });
    await adapter.registerPools([{ id: 'big', tier: 'hot', path: 'big' }]);
    await adapter.indexPaths([]);
    const status = await adapter.status();
    expect(status.details).toMatchObject({ vectorIndex: true, fullTextIndex: true });
    expect(status.details?.rows).toBeGreaterThanOrEqual(300);
    const hits = await adapter.recall({ agentId: 'x', query: 'queue 123', poolIds: ['big'] });
    expect(hits[0]?.snippet).toContain('queue 123');
    const small = open({ tableName: 'small_chunks' });
    await small.registerPools([{ id: 'big', tier: 'hot', path: 'big' }]);
    await small.indexPaths([]);
    expect((await small.status()).details).toMatchObject({ vectorIndex: false });
  });

  it('rebuild drops the table and indexes every pool again', async () => {
    const adapter = open();
    await adapter.indexPaths([]);
    const stats = await adapter.rebuild();
    expect(stats).toMatchObject({ filesScanned: 1, filesChanged: 1, chunksEmbedded: 1 });
  });

  it('passes an object-storage URI and its storage options to LanceDB untouched', async () => {
    const real = await loadLancedb();
    const calls: { uri: string; options: unknown }[] = [];
    const local = join(project.root, 'fake-bucket');
    const adapter = open({
      uri: 's3://cairn-bucket/team-a',
      storageOptions: { region: 'eu-west-1', endpoint: 'http://127.0.0.1:9' },
      loadModules: async () => ({
        arrow: real.arrow,
        lancedb: {
          ...real.lancedb,
          // Object storage is not reachable here: record the call, store locally.
          connect: (uri: string, options: object) => {
            calls.push({ uri, options });
            return real.lancedb.connect(local, options);
          },
        } as typeof real.lancedb,
      }),
    });
    const results = await adapter.recall({ agentId: 'x', query: 'notes' });
    expect(calls[0]).toMatchObject({
      uri: 's3://cairn-bucket/team-a',
      options: { storageOptions: { region: 'eu-west-1', endpoint: 'http://127.0.0.1:9' } },
    });
    expect(results[0]?.uri).toBe(join(memoryWorkspacePath(project.root), 'MEMORY.md'));
  });

  it('recalls through the file adapter with a warning when LanceDB is missing', async () => {
    const adapter = open({ loadModules: () => Promise.reject(new Error('Cannot find package')) });
    const results = await adapter.recall({ agentId: 'x', query: 'notes' });
    expect(results[0]?.snippet).toContain('Notes live here');
    const status = await adapter.status();
    expect(status.ok).toBe(false);
    expect(status.message).toMatch(/BACKEND_UNAVAILABLE.*pnpm add @lancedb\/lancedb/);
  });

  it('rejects bad options with INVALID_INPUT', async () => {
    expect(() => open({ searchMode: 'fuzzy' })).toThrow(/searchMode/);
    expect(() => open({ storageOptions: { region: 1 } })).toThrow(/storageOptions/);
    await expectCode(
      open().registerPools([{ id: 'x', tier: 'lukewarm', path: '.' } as never]),
      'INVALID_INPUT',
    );
  });
});

import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { describeRetrievalAdapter, expectCode, tempProjectPerTest } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import {
  createMem0RetrievalAdapter,
  type Mem0RetrievalAdapter,
  mem0RetrievalAdapter,
  mem0RetrievalCapabilities,
} from './index';
import { unit, unitId, writeAt, writeWorkspaceFile } from './test-fixtures';

describeRetrievalAdapter({
  name: 'mem0 (OSS, hash embedder)',
  capabilities: mem0RetrievalCapabilities,
  create: (rootDir) => createMem0RetrievalAdapter({ rootDir }),
  cleanup: (adapter) => (adapter as Mem0RetrievalAdapter).close(),
});

describe('mem0 retrieval adapter', () => {
  const project = tempProjectPerTest((root) =>
    writeWorkspaceFile(
      root,
      '2026-03-01.md',
      `${unit(1, 'The quokka gateway retries three times.')}${unit(2, 'Old quokka gateway had no retries.', { review: 'deprecated' })}`,
    ),
  );
  const open = (options: Record<string, unknown> = {}) =>
    project.closeAfter(
      createMem0RetrievalAdapter(
        { rootDir: project.root, options },
        { fallback: createFileRetrievalAdapter },
      ),
    );

  it('is registered as "mem0" with semantic recall only', () => {
    expect(mem0RetrievalAdapter.id).toBe('mem0');
    expect(mem0RetrievalAdapter.capabilities).toEqual({
      semantic: true,
      keyword: false,
      graph: false,
    });
    expect(mem0RetrievalAdapter.create({ rootDir: project.root }).id).toBe('mem0');
  });

  it('maps hits back to Cairn unit ids and leaves deprecated units out unless asked', async () => {
    const adapter = open();
    const results = await adapter.recall({ agentId: 'bob', query: 'quokka gateway retries' });
    expect(results.map((r) => r.id)).toEqual([unitId(1)]);
    expect(results[0]).toMatchObject({
      uri: join(project.root, '.cairn', 'memory', '2026-03-01.md'),
      metadata: {
        poolId: 'workspace',
        tier: 'hot',
        kind: 'UNIT',
        review: 'approved',
        memoryId: unitId(1),
      },
    });
    expect(typeof results[0]?.metadata?.mem0Id).toBe('string');
    const all = await adapter.recall({
      agentId: 'bob',
      query: 'quokka gateway retries',
      filters: { review: ['approved', 'deprecated'] },
    });
    expect(all.map((r) => r.id).sort()).toEqual([unitId(1), unitId(2)]);
    const deprecated = await adapter.recall({
      agentId: 'bob',
      query: 'quokka gateway',
      filters: { review: 'deprecated', kind: 'UNIT' },
    });
    expect(deprecated.map((r) => r.id)).toEqual([unitId(2)]);
  });

  it('scopes by userId / agentId / runId: one store, separate memories', async () => {
    const dbPath = join(project.root, 'shared-vectors.db');
    const vectorStore = { provider: 'memory', config: { dbPath } };
    await writeAt(join(project.root, 'a/notes.md'), '# A\n\nThe platypus queue drains nightly.\n');
    const alice = open({
      vectorStore,
      scope: { userId: 'alice', agentId: 'claude' },
      namespace: 'shared',
    });
    const carol = open({
      vectorStore,
      scope: { userId: 'carol', runId: 'run-7' },
      namespace: 'shared',
    });
    await alice.registerPools([{ id: 'a', tier: 'hot', path: 'a' }]);
    await alice.indexPaths([]);
    const query = { agentId: 'bob', query: 'platypus queue drains', poolIds: ['a'] };
    expect((await alice.recall(query)).map((r) => r.id)).toEqual(['a:notes.md:1']);
    // Same database, same namespace, pool registered, but another scope: Mem0 holds nothing for it
    // until carol's own mirror adds it.
    await carol.registerPools([{ id: 'a', tier: 'hot', path: 'a' }]);
    expect(await carol.rebuild()).toMatchObject({ chunksAdded: 3 });
    // Carol's rebuild cleared only carol's scope: alice still recalls hers.
    expect((await alice.recall(query)).map((r) => r.id)).toEqual(['a:notes.md:1']);
    expect((await carol.recall(query)).map((r) => r.metadata?.mem0Id)).not.toEqual(
      (await alice.recall(query)).map((r) => r.metadata?.mem0Id),
    );
  });

  it('deletes the entries of removed files and dropped pools', async () => {
    await writeAt(join(project.root, 'p/one.md'), '# One\n\nThe echidna cache warms at boot.\n');
    const adapter = open();
    await adapter.registerPools([{ id: 'p', tier: 'warm', path: 'p' }]);
    const query = { agentId: 'bob', query: 'echidna cache warms' };
    expect((await adapter.recall(query)).map((r) => r.metadata?.poolId)).toEqual(['p']);
    await adapter.registerPools([]);
    expect(await adapter.recall(query)).toEqual([]);
    const status = await adapter.status();
    expect(status.details?.pools).toEqual([
      { id: 'workspace', tier: 'hot', path: join(project.root, '.cairn', 'memory') },
    ]);
    // A rebuild clears the namespace and mirrors what is registered now: the two workspace units.
    const stats = await adapter.rebuild();
    expect(stats.chunksAdded).toBe(2);
  });

  it('falls back to the file adapter when mem0ai is missing', async () => {
    const warnings: string[] = [];
    const adapter = open({
      loadModules: () => Promise.reject(new Error('Cannot find module')),
      onWarning: (m: string) => warnings.push(m),
    });
    const results = await adapter.recall({ agentId: 'bob', query: 'quokka gateway' });
    expect(results[0]?.snippet).toContain('quokka');
    expect(warnings.join('\n')).toMatch(/BACKEND_UNAVAILABLE.*pnpm add mem0ai/);
    expect((await adapter.status()).details?.warnings).toHaveLength(1);
  });

  it('rejects bad options with INVALID_CONFIG and bad queries with INVALID_INPUT', async () => {
    expect(() => open({ threshold: 2 })).toThrow(/threshold/);
    await expectCode(open().recall({ agentId: 'bob', query: 'x', limit: 0 }), 'INVALID_INPUT');
  });
});

import { join } from 'node:path';
import {
  describeRetrievalAdapter,
  expectCode,
  makeTempProject,
  writeWorkspaceFile,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIndexedRetrievalAdapter } from './indexed-retrieval-adapter';
import { keywordIndexRegistration } from './keyword-index.fixture';

describeRetrievalAdapter({
  name: 'indexed (keyword test index)',
  capabilities: { semantic: false, keyword: true, graph: false },
  create: (rootDir) => createIndexedRetrievalAdapter(keywordIndexRegistration(), { rootDir }),
});

describe('createIndexedRetrievalAdapter', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ root, cleanup } = await makeTempProject());
    await writeWorkspaceFile(
      root,
      'MEMORY.md',
      '# Head\n\nThe quokka service deploys blue-green.\n',
    );
    await writeWorkspaceFile(root, '../../pools/ops/keys.md', '# Keys\n\nquokka keys rotate.\n');
  });
  afterEach(() => cleanup());
  const pools = [{ id: 'ops', tier: 'warm' as const, path: 'pools/ops' }];

  it('reconciles the index to the registered pools and checks undeclared filters after', async () => {
    const registration = keywordIndexRegistration();
    const adapter = createIndexedRetrievalAdapter(registration, { rootDir: root });
    await adapter.registerPools(pools);
    const all = await adapter.recall({ agentId: 'a', query: 'quokka', tiers: ['hot', 'warm'] });
    expect(all.map((r) => r.metadata?.poolId).sort()).toEqual(['ops', 'workspace']);
    const warm = await adapter.recall({
      agentId: 'a',
      query: 'quokka',
      tiers: ['hot', 'warm'],
      filters: { tier: 'warm', poolId: ['ops', 'workspace'] },
    });
    expect(warm.map((r) => r.uri)).toEqual([join(root, 'pools/ops/keys.md')]);
    expect(registration.probe.lastFilters()).toEqual({
      oneOf: { poolId: ['ops', 'workspace'] },
    });
    await adapter.registerPools([]);
    await adapter.recall({ agentId: 'a', query: 'quokka' });
    expect(registration.probe.pools()).toEqual(['workspace']);
  });

  it('creates its index in the dataDir the host gives at init', async () => {
    const registration = keywordIndexRegistration();
    const adapter = createIndexedRetrievalAdapter(registration, { rootDir: root });
    await adapter.init?.({ dataDir: join(root, 'data') });
    await adapter.indexPaths([]);
    expect(registration.probe.created).toEqual([{ rootDir: root, dataDir: join(root, 'data') }]);
  });

  it('recalls through the fallback with a warning, and status says why', async () => {
    const adapter = createIndexedRetrievalAdapter(
      keywordIndexRegistration(),
      { rootDir: root, options: { broken: true } },
      {
        fallback: (factory) => createIndexedRetrievalAdapter(keywordIndexRegistration(), factory),
      },
    );
    await adapter.registerPools(pools);
    const found = await adapter.recall({ agentId: 'a', query: 'quokka', tiers: ['warm'] });
    expect(found.map((r) => r.metadata?.poolId)).toEqual(['ops']);
    expect(adapter.warnings).toEqual([
      'Keyword recall failed, using the file adapter instead: BACKEND_UNAVAILABLE: the keyword engine is missing',
    ]);
    const status = await adapter.status();
    expect(status.ok).toBe(false);
    expect(status.message).toMatch(/^Keyword unavailable, recall uses the file adapter/);
  });

  it('throws without a fallback, and reports a healthy index in status', async () => {
    const broken = createIndexedRetrievalAdapter(keywordIndexRegistration(), {
      rootDir: root,
      options: { broken: true },
    });
    await expectCode(broken.recall({ agentId: 'a', query: 'quokka' }), 'BACKEND_UNAVAILABLE');
    const adapter = createIndexedRetrievalAdapter(keywordIndexRegistration(), { rootDir: root });
    await adapter.rebuild();
    const status = await adapter.status();
    expect(status).toMatchObject({ ok: true, message: 'Keyword search over 1 pool(s)' });
    expect(status.details).toMatchObject({ chunks: 1 });
  });

  it('splits the workspace by chunk: units, the head and thread heads hot, daily notes warm', async () => {
    await writeWorkspaceFile(
      root,
      '2026-01-02.md',
      '<!-- cairn:memory:item:start memory_id=UNIT:11111111-1111-4111-8111-111111111111 category=fact review=approved created_at=2026-01-02T00:00:00.000Z updated_at=2026-01-02T00:00:00.000Z -->\nThe quokka unit.\n<!-- cairn:memory:item:end -->\n\nA quokka note of the day.\n',
    );
    await writeWorkspaceFile(root, 'threads/t1.md', '# Thread\n\nquokka thread state.\n');
    const adapter = createIndexedRetrievalAdapter(keywordIndexRegistration(), { rootDir: root });
    const tierOf = async (tiers: ('hot' | 'warm')[]) =>
      (await adapter.recall({ agentId: 'a', query: 'quokka', tiers }))
        .map((r) => `${r.metadata?.tier}:${r.metadata?.path}:${r.metadata?.kind}`)
        .sort();
    expect(await tierOf(['hot'])).toEqual([
      'hot:2026-01-02.md:UNIT',
      'hot:MEMORY.md:RAW',
      'hot:threads/t1.md:RAW',
    ]);
    expect(await tierOf(['warm'])).toEqual(['warm:2026-01-02.md:RAW']);
    const viaFilter = await adapter.recall({
      agentId: 'a',
      query: 'quokka',
      filters: { tier: 'warm' },
    });
    expect(viaFilter.map((r) => r.metadata?.path)).toEqual(['2026-01-02.md']);
  });

  it('searches the index it is given and leaves closing it to its owner', async () => {
    const registration = keywordIndexRegistration();
    let closed = 0;
    const shared = registration.create({ rootDir: root, options: {}, warn: () => undefined });
    const index = {
      ...shared,
      close: async () => {
        closed += 1;
      },
    };
    const adapter = createIndexedRetrievalAdapter(registration, { rootDir: root }, { index });
    expect(await adapter.recall({ agentId: 'a', query: 'quokka' })).toHaveLength(1);
    await adapter.close();
    expect(registration.probe.created).toHaveLength(1);
    expect(closed).toBe(0);
  });

  it('recalls a pool with a source of its own, in its tier, until a definition takes its id', async () => {
    const source = {
      key: 'documents',
      list: () => [{ path: 'guide.md', bytes: 30, mtimeMs: 1 }],
      read: async () => Buffer.from('# Guide\n\nThe quokka guide.\n'),
    };
    const sourcePools = [
      { definition: { id: 'documents', tier: 'cold' as const, path: '.' }, source },
    ];
    const adapter = createIndexedRetrievalAdapter(
      keywordIndexRegistration(),
      { rootDir: root },
      { sourcePools },
    );
    await adapter.registerPools(pools);
    expect(await adapter.recall({ agentId: 'a', query: 'quokka' })).toHaveLength(2);
    const cold = await adapter.recall({ agentId: 'a', query: 'quokka', tiers: ['cold'] });
    expect(cold.map((r) => [r.metadata?.poolId, r.uri])).toEqual([
      ['documents', join(root, 'guide.md')],
    ]);
    await adapter.registerPools([{ id: 'documents', tier: 'cold', path: 'pools/ops' }]);
    const replaced = await adapter.recall({ agentId: 'a', query: 'quokka', tiers: ['cold'] });
    expect(replaced.map((r) => r.metadata?.path)).toEqual(['keys.md']);
  });
});

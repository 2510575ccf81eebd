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
});

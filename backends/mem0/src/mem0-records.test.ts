import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import {
  DIGEST_FIXTURE_PATH,
  expectRecordsThroughRecall,
  historyRecordsFixture,
  PATTERN_FIXTURE_PATH,
  recordsProjectPerTest,
} from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createMem0RetrievalAdapter, type Mem0RetrievalAdapter } from './index';
import { resolveMem0Options } from './mem0-options';
import { openOssStore } from './oss-store';

/**
 * Seed 004 §6.2 / §6.3 in Mem0 (OSS, its SQLite vector store, for real):
 * task-history records are mirrored with record_kind, trust_class,
 * namespace, repo and run_ref metadata, filtered on by Mem0 itself, and
 * two namespaces or repos sharing one store never see each other's.
 */
describe('mem0: task-history records', () => {
  const temp = recordsProjectPerTest();
  const storeOptions = () => ({
    vectorStore: { provider: 'memory', config: { dbPath: join(temp.root, 'shared.db') } },
    dataDir: join(temp.root, 'mem0-data'),
  });
  const open = (namespace: string, repo: string, word?: string) => {
    const fixture = historyRecordsFixture({ namespace, repo, word });
    const adapter = createMem0RetrievalAdapter(
      { rootDir: temp.root, options: { ...storeOptions(), namespace, repo } },
      {
        fallback: createFileRetrievalAdapter,
        sourcePools: [{ definition: fixture.definition, source: fixture.source }],
      },
    );
    return temp.closeAfter(adapter);
  };
  /** Every entry of the shared store, as Mem0 keeps it. */
  const entries = async () => {
    const store = await openOssStore(temp.root, resolveMem0Options(storeOptions()));
    try {
      return (await store.list({}, 500)).map((hit) => hit.metadata);
    } finally {
      await store.close();
    }
  };

  it('mirrors a digest and a pattern with their record metadata, markdown as doc / long_term_shadow', async () => {
    const adapter = open('team-a', 'shop');
    await adapter.rebuild();
    expect(adapter.warnings).toEqual([]);
    const stored = await entries();
    const byPath = (path: string) => stored.filter((m) => m.path === path);
    expect(byPath(PATTERN_FIXTURE_PATH)[0]).toMatchObject({
      namespace: 'team-a',
      repo: 'shop',
      record_kind: 'fix_pattern',
      trust_class: 'approved',
      run_ref_kind: 'run',
      run_ref_id: 's-42',
      unitCreatedAt: '2026-05-01T09:10:00.000Z',
    });
    expect(byPath(DIGEST_FIXTURE_PATH)[0]).toMatchObject({
      record_kind: 'run_digest',
      trust_class: 'derived',
      run_ref_id: 's-42',
    });
    expect(
      byPath('MEMORY.md')
        .map((m) => m.record_kind)
        .sort(),
    ).toEqual(['doc', 'long_term_shadow']);
  });

  it('filters on record_kind and run_ref through recall (Mem0 applies them)', async () => {
    await expectRecordsThroughRecall(
      open('default', 'shop'),
      { namespace: 'default', repo: 'shop' },
      { agentId: 'bob', query: 'When the quokkaflare build fails, run pnpm install.', limit: 10 },
    );
  });

  it('keeps two namespaces and two repos sharing one store apart', async () => {
    const teamA = open('team-a', 'shop', 'quokkaflare');
    const teamB = open('team-b', 'shop', 'otterlamp');
    const bank = open('team-a', 'bank', 'wombatine');
    const partitions = async (adapter: Mem0RetrievalAdapter, word: string) =>
      (
        await adapter.recall({
          agentId: 'bob',
          query: `When the ${word} build fails, run pnpm install.`,
          filters: { record_kind: 'fix_pattern' },
        })
      ).map((h) => `${h.metadata?.namespace_id}/${h.metadata?.repo}`);
    expect(await partitions(teamA, 'quokkaflare')).toEqual(['team-a/shop']);
    expect(await partitions(teamB, 'otterlamp')).toEqual(['team-b/shop']);
    expect(await partitions(bank, 'wombatine')).toEqual(['team-a/bank']);
    const stored = await entries();
    const all = new Set(stored.filter((m) => m.record_kind).map((m) => `${m.namespace}/${m.repo}`));
    expect([...all].sort()).toEqual(['team-a/bank', 'team-a/shop', 'team-b/shop']);
  });
});

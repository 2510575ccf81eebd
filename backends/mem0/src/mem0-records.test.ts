import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import {
  DIGEST_FIXTURE_PATH,
  historyRecordsFixture,
  makeTempProject,
  PATTERN_FIXTURE_PATH,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMem0RetrievalAdapter, type Mem0RetrievalAdapter } from './index';
import { resolveMem0Options } from './mem0-options';
import { openOssStore } from './oss-store';
import { unit, writeWorkspaceFile } from './test-fixtures';

/**
 * Seed 004 §6.2 / §6.3 in Mem0 (OSS, its SQLite vector store, for real):
 * task-history records are mirrored with record_kind, trust_class,
 * namespace, repo and run_ref metadata, filtered on by Mem0 itself, and
 * two namespaces or repos sharing one store never see each other's.
 */
describe('mem0: task-history records', () => {
  let temp: TempProject;
  const adapters: Mem0RetrievalAdapter[] = [];
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
    adapters.push(adapter);
    return adapter;
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

  beforeEach(async () => {
    temp = await makeTempProject();
    await writeWorkspaceFile(
      temp.root,
      'MEMORY.md',
      `The quokkaflare notes.\n\n${unit(1, 'The quokkaflare build uses pnpm.', { review: 'approved' })}\n`,
    );
  });
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((a) => a.close()));
    await temp.cleanup();
  });

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
    const adapter = open('default', 'shop');
    const query = {
      agentId: 'bob',
      query: 'When the quokkaflare build fails, run pnpm install.',
      limit: 10,
    };
    const patterns = await adapter.recall({ ...query, filters: { record_kind: 'fix_pattern' } });
    expect(patterns.map((h) => h.metadata?.path)).toEqual([PATTERN_FIXTURE_PATH]);
    expect(patterns[0]?.metadata).toMatchObject({
      trust_class: 'approved',
      namespace_id: 'default',
      repo: 'shop',
      'run_ref.kind': 'run',
      'run_ref.id': 's-42',
    });
    const byRun = await adapter.recall({
      ...query,
      filters: { record_kind: ['run_digest', 'fix_pattern'], 'run_ref.id': 's-42' },
    });
    expect(byRun.map((h) => h.metadata?.path).sort()).toEqual([
      PATTERN_FIXTURE_PATH,
      DIGEST_FIXTURE_PATH,
    ]);
    const none = await adapter.recall({ ...query, filters: { 'run_ref.id': 's-99' } });
    expect(none).toEqual([]);
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

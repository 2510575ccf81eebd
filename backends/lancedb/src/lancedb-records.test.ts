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
import { createLancedbRetrievalAdapter, type LancedbRetrievalAdapter, loadLancedb } from './index';

/**
 * Seed 004 §6.2 in LanceDB: task-history records (a run digest, a fix
 * pattern) land with record_kind, trust_class, the namespace_id / project
 * partition and run_ref columns, and two namespaces of one project sharing
 * a table never see each other's rows.
 */
describe('lancedb: task-history records', () => {
  const temp = recordsProjectPerTest();
  const sharedDir = () => join(temp.root, 'shared-lancedb');
  const open = (options: Record<string, unknown>, namespace: string, word?: string) => {
    const fixture = historyRecordsFixture({ namespace, repo: String(options.repo), word });
    const adapter = createLancedbRetrievalAdapter(
      { rootDir: temp.root, options: { uri: sharedDir(), namespace, ...options } },
      {
        fallback: createFileRetrievalAdapter,
        sourcePools: [{ definition: fixture.definition, source: fixture.source }],
      },
    );
    return temp.closeAfter(adapter);
  };
  const storedRows = async () => {
    const { lancedb } = await loadLancedb();
    const db = await lancedb.connect(sharedDir());
    const columns = [
      'project',
      'namespace_id',
      'path',
      'record_kind',
      'trust_class',
      'run_ref_kind',
      'run_ref_id',
      'created_at',
      'text',
    ];
    const rows = await (await db.openTable('cairn_chunks')).query().select(columns).toArray();
    db.close();
    return rows.map((row) => ({ ...row })) as Record<string, string | null>[];
  };

  it('stores a digest and a pattern with their record columns, markdown with doc / long_term_shadow', async () => {
    const adapter = open({ repo: 'shop' }, 'team-a');
    const hits = await adapter.recall({ agentId: 'bob', query: 'quokkaflare build', limit: 10 });
    expect(adapter.warnings).toEqual([]);
    expect(hits.map((h) => h.metadata?.record_kind).sort()).toEqual([
      'doc',
      'fix_pattern',
      'long_term_shadow',
      'run_digest',
    ]);
    const rows = await storedRows();
    const byPath = new Map(rows.map((row) => [row.path, row]));
    expect(byPath.get(PATTERN_FIXTURE_PATH)).toMatchObject({
      project: 'shop',
      namespace_id: 'team-a',
      record_kind: 'fix_pattern',
      trust_class: 'approved',
      run_ref_kind: 'run',
      run_ref_id: 's-42',
    });
    expect(byPath.get(DIGEST_FIXTURE_PATH)).toMatchObject({
      record_kind: 'run_digest',
      trust_class: 'derived',
      created_at: '2026-05-01T09:14:10.000Z',
    });
    const markdown = rows.filter((row) => row.path === 'MEMORY.md');
    expect(markdown.map((row) => `${row.record_kind}/${row.trust_class}`).sort()).toEqual([
      'doc/raw',
      'long_term_shadow/approved',
    ]);
    expect(rows.every((row) => !String(row.text).includes('cairn:record'))).toBe(true);
  });

  it('filters on record_kind and run_ref through recall (pushed down as predicates)', async () => {
    await expectRecordsThroughRecall(open({ repo: 'shop' }, 'default'), {
      namespace: 'default',
      repo: 'shop',
    });
  });

  it('keeps two namespaces and two repos of one table apart', async () => {
    const teamA = open({ repo: 'shop' }, 'team-a', 'quokkaflare');
    const teamB = open({ repo: 'shop' }, 'team-b', 'otterlamp');
    const otherRepo = open({ repo: 'bank' }, 'team-a', 'wombatine');
    const paths = async (adapter: LancedbRetrievalAdapter, query: string) =>
      (
        await adapter.recall({ agentId: 'bob', query, filters: { record_kind: 'fix_pattern' } })
      ).map((h) => `${h.metadata?.namespace_id}/${h.metadata?.repo}`);
    expect(await paths(teamA, 'quokkaflare build')).toEqual(['team-a/shop']);
    expect(await paths(teamB, 'otterlamp build')).toEqual(['team-b/shop']);
    expect(await paths(otherRepo, 'wombatine build')).toEqual(['team-a/bank']);
    // Each sees only its own partition's records, though all three share one table.
    expect(await paths(teamA, 'otterlamp wombatine')).toEqual([]);
    expect(await paths(teamB, 'quokkaflare wombatine')).toEqual([]);
    const partitions = new Set((await storedRows()).map((r) => `${r.namespace_id}/${r.project}`));
    expect([...partitions].sort()).toEqual(['team-a/bank', 'team-a/shop', 'team-b/shop']);
  });
});

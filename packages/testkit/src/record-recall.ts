import type { MemoryRetrievalAdapter } from '@cairn/core';
import { expect } from 'vitest';
import { DIGEST_FIXTURE_PATH, PATTERN_FIXTURE_PATH } from './history-records';

/** The partition the records were indexed in (historyRecordsFixture's defaults: `default`, `shop`). */
export interface RecordPartition {
  namespace: string;
  repo: string;
}

/**
 * What every index that stores task-history records (seed 004 §6.2) answers
 * through recall, for an adapter over the workspace (one approved unit) and
 * `historyRecordsFixture`'s pool: each hit carries its `record_kind`; a
 * `record_kind` filter returns only the pattern, with its trust class,
 * partition and run ref; a run ref filter returns the run's digest and
 * pattern; markdown is `doc` from the workspace pool.
 */
export async function expectRecordsThroughRecall(
  adapter: MemoryRetrievalAdapter,
  partition: RecordPartition,
  query = { agentId: 'bob', query: 'quokkaflare build', limit: 10 },
): Promise<void> {
  const all = await adapter.recall(query);
  expect(all.map((hit) => hit.metadata?.record_kind).sort()).toEqual([
    'doc',
    'fix_pattern',
    'long_term_shadow',
    'run_digest',
  ]);
  const unit = all.find((hit) => hit.metadata?.record_kind === 'long_term_shadow');
  expect(unit?.metadata?.trust_class).toBe('approved');
  const patterns = await adapter.recall({ ...query, filters: { record_kind: 'fix_pattern' } });
  expect(patterns.map((hit) => hit.metadata?.path)).toEqual([PATTERN_FIXTURE_PATH]);
  expect(patterns[0]?.metadata).toMatchObject({
    trust_class: 'approved',
    namespace_id: partition.namespace,
    repo: partition.repo,
    'run_ref.kind': 'run',
    'run_ref.id': 's-42',
  });
  const byRun = await adapter.recall({
    ...query,
    filters: { record_kind: ['run_digest', 'fix_pattern'], 'run_ref.id': 's-42' },
  });
  expect(byRun.map((hit) => hit.metadata?.path).sort()).toEqual([
    PATTERN_FIXTURE_PATH,
    DIGEST_FIXTURE_PATH,
  ]);
  expect(await adapter.recall({ ...query, filters: { 'run_ref.id': 's-99' } })).toEqual([]);
  const docs = await adapter.recall({ ...query, filters: { record_kind: ['doc'] } });
  expect(docs.map((hit) => hit.metadata?.poolId)).toEqual(['workspace']);
}

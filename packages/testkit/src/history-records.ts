import {
  encodeRecordHeader,
  type MemoryPoolDefinition,
  type MemoryRecordMeta,
  type PoolSource,
} from '@cairn/core';
import { type ProjectPerTest, tempProjectPerTest } from './temp-project-per-test';
import { fixtureUnit, writeWorkspaceFile } from './workspace-fixtures';

/**
 * Task-history records as the engine's history pool renders them (one
 * run digest, one fix pattern), for the index tests of every backend: a
 * records source (`PoolSource.records`) with stable paths and mtimes.
 */
export interface HistoryRecordsFixture {
  definition: MemoryPoolDefinition;
  source: PoolSource;
  /** The records by path. */
  records: Record<string, { meta: MemoryRecordMeta; text: string }>;
}

export const HISTORY_FIXTURE_POOL = 'history';
export const DIGEST_FIXTURE_PATH = 'history/run-digests/s-42.md';
export const PATTERN_FIXTURE_PATH = 'history/fix-patterns/FIX-0123456789ab.md';

export function historyRecordsFixture(
  partition: { namespace?: string; repo?: string; word?: string } = {},
): HistoryRecordsFixture {
  const namespace = partition.namespace ?? 'default';
  const repo = partition.repo ?? 'shop';
  const word = partition.word ?? 'quokkaflare';
  const common = { namespace, repo, runRef: { kind: 'run', id: 's-42' } };
  const records = {
    [DIGEST_FIXTURE_PATH]: {
      meta: {
        ...common,
        kind: 'run_digest' as const,
        trustClass: 'derived' as const,
        createdAt: '2026-05-01T09:14:10.000Z',
      },
      text: `# Run s-42 (succeeded)\n\nIntent: fix the failing ${word} build.\n`,
    },
    [PATTERN_FIXTURE_PATH]: {
      meta: {
        ...common,
        kind: 'fix_pattern' as const,
        trustClass: 'approved' as const,
        createdAt: '2026-05-01T09:10:00.000Z',
      },
      text: `# Fix pattern FIX-0123456789ab (verified)\n\nWhen the ${word} build fails, run pnpm install.\n`,
    },
  };
  const bytes = (path: string) => {
    const record = records[path as keyof typeof records];
    return record ? Buffer.from(`${encodeRecordHeader(record.meta)}\n${record.text}`) : undefined;
  };
  return {
    definition: { id: HISTORY_FIXTURE_POOL, tier: 'warm', path: '.' },
    source: {
      key: HISTORY_FIXTURE_POOL,
      records: true,
      list: () =>
        Object.keys(records).map((path) => ({
          path,
          bytes: bytes(path)!.length,
          mtimeMs: Date.parse(records[path as keyof typeof records].meta.createdAt),
        })),
      read: async (path) => bytes(path),
    },
    records,
  };
}

/**
 * A fresh project for every test whose workspace holds the quokkaflare
 * notes (a raw line and one approved unit): the markdown beside
 * `historyRecordsFixture`'s records in the record tests of every index.
 */
export function recordsProjectPerTest(): ProjectPerTest {
  return tempProjectPerTest(async (root) => {
    const unit = fixtureUnit(1, 'The quokkaflare build uses pnpm.', { review: 'approved' });
    await writeWorkspaceFile(root, 'MEMORY.md', `The quokkaflare notes.\n\n${unit}\n`);
  });
}

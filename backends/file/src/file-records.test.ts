import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnIndexPath, memoryWorkspacePath } from '@cairn/core';
import { openSqlite } from '@cairn/sqlite';
import {
  DIGEST_FIXTURE_PATH,
  expectRecordsThroughRecall,
  historyRecordsFixture,
  makeTempProject,
  PATTERN_FIXTURE_PATH,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeSearchIndexes, createFileRetrievalAdapter, POOL_INDEX_FILENAME } from './index';
import { unit } from './test-fixtures';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
  await mkdir(memoryWorkspacePath(project.root), { recursive: true });
  await writeFile(
    join(memoryWorkspacePath(project.root), 'MEMORY.md'),
    `The quokkaflare notes.\n\n${unit(1, 'The quokkaflare build uses pnpm.', { review: 'approved' })}\n`,
  );
});
afterEach(async () => {
  closeSearchIndexes();
  await project.cleanup();
});

const adapterOver = (fixture = historyRecordsFixture()) =>
  createFileRetrievalAdapter(
    { rootDir: project.root },
    { sourcePools: [{ definition: fixture.definition, source: fixture.source }] },
  );

describe('file index: task-history records (seed 004 §6.2)', () => {
  it('stores a digest and a pattern with record_kind, trust_class, namespace, repo and run_ref columns', async () => {
    const adapter = adapterOver(historyRecordsFixture({ namespace: 'team-a', repo: 'shop' }));
    await adapter.recall({ agentId: 'a', query: 'quokkaflare build' });
    const db = openSqlite(join(cairnIndexPath(project.root), POOL_INDEX_FILENAME), 'a test read');
    try {
      const rows = db
        .prepare(
          `SELECT path, record_kind, trust_class, namespace_id, repo, run_ref_kind, run_ref_id, created_at, text
           FROM chunks ORDER BY path`,
        )
        .all() as Record<string, string>[];
      expect(rows.map((row) => [row.path, row.record_kind, row.trust_class])).toEqual([
        [PATTERN_FIXTURE_PATH, 'fix_pattern', 'approved'],
        [DIGEST_FIXTURE_PATH, 'run_digest', 'derived'],
      ]);
      for (const row of rows) {
        expect(row).toMatchObject({
          namespace_id: 'team-a',
          repo: 'shop',
          run_ref_kind: 'run',
          run_ref_id: 's-42',
        });
        expect(row.created_at).toMatch(/^2026-05-01T/);
        expect(row.text).not.toContain('cairn:record');
      }
    } finally {
      db.close();
    }
    await adapter.close();
  });

  it('gives markdown chunks doc and long_term_shadow, and filters on record_kind through recall', async () => {
    const adapter = adapterOver();
    await expectRecordsThroughRecall(adapter, { namespace: 'default', repo: 'shop' });
    await adapter.close();
  });

  it('keeps a namespace and a repo apart: a filter on either never returns another partition', async () => {
    const adapter = adapterOver(historyRecordsFixture({ namespace: 'team-a', repo: 'shop' }));
    const query = { agentId: 'a', query: 'quokkaflare build', limit: 10 };
    const mine = await adapter.recall({
      ...query,
      filters: { namespace_id: 'team-a', repo: 'shop' },
    });
    expect(mine.map((r) => r.metadata?.path).sort()).toEqual([
      PATTERN_FIXTURE_PATH,
      DIGEST_FIXTURE_PATH,
    ]);
    expect(await adapter.recall({ ...query, filters: { namespace_id: 'team-b' } })).toEqual([]);
    expect(await adapter.recall({ ...query, filters: { repo: 'other' } })).toEqual([]);
    await adapter.close();
  });
});

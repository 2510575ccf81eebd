import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLancedbRetrievalAdapter, type LancedbRetrievalAdapter } from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

/**
 * Two projects sharing one LanceDB database folder (`uri`). Rows carry a
 * pool, not a project: a shared database is partitioned by table, one
 * `tableName` per project (docs/SECURITY.md). These tests pin what holds:
 * with a table each, neither project ever sees the other's rows; even on
 * one table, a project's refresh takes the pool back before it searches,
 * so sequential searches never return the other project's items.
 */
describe('lancedb isolation between projects sharing a database', () => {
  let temp: TempProject;
  let appA: string;
  let appB: string;
  const adapters: LancedbRetrievalAdapter[] = [];
  const open = (rootDir: string, options: Record<string, unknown> = {}) => {
    const adapter = createLancedbRetrievalAdapter(
      { rootDir, options: { uri: join(temp.root, 'shared-lancedb'), ...options } },
      { fallback: createFileRetrievalAdapter },
    );
    adapters.push(adapter);
    return adapter;
  };

  beforeEach(async () => {
    temp = await makeTempProject();
    appA = join(temp.root, 'one', 'app');
    appB = join(temp.root, 'two', 'app');
    await mkdir(appA, { recursive: true });
    await mkdir(appB, { recursive: true });
    await writeWorkspaceFile(appA, '2026-03-01.md', unit(1, 'The wombat scheduler runs hourly.'));
    await writeWorkspaceFile(
      appB,
      '2026-03-01.md',
      unit(2, 'The wombat scheduler of project two runs daily.'),
    );
  });
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((a) => a.close()));
    await temp.cleanup();
  });

  const ids = async (adapter: LancedbRetrievalAdapter) =>
    (await adapter.recall({ agentId: 'bob', query: 'wombat scheduler runs' })).map((r) =>
      r.id.replace(/^.*#/, ''),
    );

  it('one table per project: a search never returns the other project’s items', async () => {
    const a = open(appA, { tableName: 'app_one' });
    const b = open(appB, { tableName: 'app_two' });
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(await ids(b)).toEqual([unitId(2)]);
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(a.warnings).toEqual([]);
  });

  it('one shared table: each search refreshes its pools first and sees only its own items', async () => {
    const a = open(appA);
    const b = open(appB);
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(await ids(b)).toEqual([unitId(2)]);
    expect(await ids(a)).toEqual([unitId(1)]);
  });
});

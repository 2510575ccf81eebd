import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLancedbRetrievalAdapter, type LancedbRetrievalAdapter, loadLancedb } from './index';
import { defaultRepo } from './lancedb-options';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

/**
 * Two projects named alike (`one/app`, `two/app`) sharing one LanceDB
 * database folder (`uri`). Every row carries the project's partition
 * (`repo`: folder name plus a hash of its path) and every read, write and
 * delete filters on it, so two projects can share one table
 * (docs/SECURITY.md "Isolation").
 */
describe('lancedb isolation between projects sharing a database', () => {
  let temp: TempProject;
  let appA: string;
  let appB: string;
  let shared: string;
  const adapters: LancedbRetrievalAdapter[] = [];
  const open = (rootDir: string, options: Record<string, unknown> = {}) => {
    const adapter = createLancedbRetrievalAdapter(
      { rootDir, options: { uri: shared, ...options } },
      { fallback: createFileRetrievalAdapter },
    );
    adapters.push(adapter);
    return adapter;
  };
  /** The rows on disk, read with LanceDB itself. */
  const storedRows = async (table = 'cairn_chunks') => {
    const { lancedb } = await loadLancedb();
    const db = await lancedb.connect(shared);
    const rows = await (await db.openTable(table)).query().select(['project', 'text']).toArray();
    db.close();
    return rows as { project: string; text: string }[];
  };

  beforeEach(async () => {
    temp = await makeTempProject();
    shared = join(temp.root, 'shared-lancedb');
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

  it('one shared table: both projects keep their rows, each under its own partition', async () => {
    const a = open(appA);
    const b = open(appB);
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(await ids(b)).toEqual([unitId(2)]);
    expect(await ids(a)).toEqual([unitId(1)]);
    const rows = await storedRows();
    expect(new Set(rows.map((r) => r.project))).toEqual(
      new Set([defaultRepo(appA), defaultRepo(appB)]),
    );
    expect(defaultRepo(appA)).not.toBe(defaultRepo(appB));
    expect(defaultRepo(appA)).toMatch(/^app-[0-9a-f]{10}$/);
  });

  it('one shared table: interleaved concurrent searches never see the other project’s rows', async () => {
    const a = open(appA);
    const b = open(appB);
    // Each recall refreshes its pools, then searches: with both in flight, the
    // refreshes and searches of the two projects interleave on one table.
    const rounds = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b));
    const answers = await Promise.all(rounds.map((adapter) => ids(adapter)));
    for (const [i, answer] of answers.entries()) {
      expect(answer).toEqual([i % 2 === 0 ? unitId(1) : unitId(2)]);
    }
  });

  it('a rebuild of one project leaves the other project’s rows in place', async () => {
    const a = open(appA);
    const b = open(appB);
    await ids(a);
    await ids(b);
    await a.rebuild();
    const rows = await storedRows();
    expect(rows.filter((r) => r.project === defaultRepo(appB))).toHaveLength(1);
    expect(rows.filter((r) => r.project === defaultRepo(appA))).toHaveLength(1);
  });

  it('an explicit `repo` shares one partition on purpose (two checkouts of one project)', async () => {
    const a = open(appA, { repo: 'team-app' });
    const b = open(appB, { repo: 'team-app' });
    await ids(a);
    await ids(b);
    expect(new Set((await storedRows()).map((r) => r.project))).toEqual(new Set(['team-app']));
  });

  it('a table written before the partition existed is rebuilt automatically, with a warning', async () => {
    const { lancedb, arrow } = await loadLancedb();
    const db = await lancedb.connect(shared);
    const { Field, Schema, Utf8 } = arrow;
    const old = new Schema(
      [new Field('chunk_id', new Utf8(), false), new Field('pool', new Utf8(), false)],
      new Map([['cairn.format', '1']]),
    );
    await db.createEmptyTable('cairn_chunks', old);
    await db.createEmptyTable('cairn_chunks_files', old);
    db.close();
    const a = open(appA);
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(a.warnings.join('\n')).toMatch(/rebuilding the LanceDB index .*another index format/);
    expect((await storedRows()).map((r) => r.project)).toEqual([defaultRepo(appA)]);
  });
});

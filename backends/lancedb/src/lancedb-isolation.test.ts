import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { twoCheckoutsPerTest } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createLancedbRetrievalAdapter, type LancedbRetrievalAdapter, loadLancedb } from './index';
import { defaultRepo } from './lancedb-options';
import { unitId } from './test-fixtures';

/**
 * Two projects named alike (`one/app`, `two/app`) sharing one LanceDB
 * database folder (`uri`). Every row carries the project's partition
 * (`repo`: folder name plus a hash of its path) and every read, write and
 * delete filters on it, so two projects can share one table
 * (docs/SECURITY.md "Isolation").
 */
describe('lancedb isolation between projects sharing a database', () => {
  const checkouts = twoCheckoutsPerTest();
  const shared = () => join(checkouts.root, 'shared-lancedb');
  const open = (rootDir: string, options: Record<string, unknown> = {}) =>
    checkouts.closeAfter(
      createLancedbRetrievalAdapter(
        { rootDir, options: { uri: shared(), ...options } },
        { fallback: createFileRetrievalAdapter },
      ),
    );
  /** The rows on disk, read with LanceDB itself. */
  const storedRows = async (table = 'cairn_chunks') => {
    const { lancedb } = await loadLancedb();
    const db = await lancedb.connect(shared());
    const rows = await (await db.openTable(table)).query().select(['project', 'text']).toArray();
    db.close();
    return rows as { project: string; text: string }[];
  };

  const ids = async (adapter: LancedbRetrievalAdapter) =>
    (await adapter.recall({ agentId: 'bob', query: 'wombat scheduler runs' })).map((r) =>
      r.id.replace(/^.*#/, ''),
    );

  it('one table per project: a search never returns the other project’s items', async () => {
    const a = open(checkouts.appA, { tableName: 'app_one' });
    const b = open(checkouts.appB, { tableName: 'app_two' });
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(await ids(b)).toEqual([unitId(2)]);
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(a.warnings).toEqual([]);
  });

  it('one shared table: both projects keep their rows, each under its own partition', async () => {
    const a = open(checkouts.appA);
    const b = open(checkouts.appB);
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(await ids(b)).toEqual([unitId(2)]);
    expect(await ids(a)).toEqual([unitId(1)]);
    const rows = await storedRows();
    expect(new Set(rows.map((r) => r.project))).toEqual(
      new Set([defaultRepo(checkouts.appA), defaultRepo(checkouts.appB)]),
    );
    expect(defaultRepo(checkouts.appA)).not.toBe(defaultRepo(checkouts.appB));
    expect(defaultRepo(checkouts.appA)).toMatch(/^app-[0-9a-f]{10}$/);
  });

  it('one shared table: interleaved concurrent searches never see the other project’s rows', async () => {
    const a = open(checkouts.appA);
    const b = open(checkouts.appB);
    // Each recall refreshes its pools, then searches: with both in flight, the
    // refreshes and searches of the two projects interleave on one table.
    const rounds = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b));
    const answers = await Promise.all(rounds.map((adapter) => ids(adapter)));
    for (const [i, answer] of answers.entries()) {
      expect(answer).toEqual([i % 2 === 0 ? unitId(1) : unitId(2)]);
    }
  });

  it('a rebuild of one project leaves the other project’s rows in place', async () => {
    const a = open(checkouts.appA);
    const b = open(checkouts.appB);
    await ids(a);
    await ids(b);
    await a.rebuild();
    const rows = await storedRows();
    expect(rows.filter((r) => r.project === defaultRepo(checkouts.appB))).toHaveLength(1);
    expect(rows.filter((r) => r.project === defaultRepo(checkouts.appA))).toHaveLength(1);
  });

  it('an explicit `repo` shares one partition on purpose (two checkouts of one project)', async () => {
    const a = open(checkouts.appA, { repo: 'team-app' });
    const b = open(checkouts.appB, { repo: 'team-app' });
    await ids(a);
    await ids(b);
    expect(new Set((await storedRows()).map((r) => r.project))).toEqual(new Set(['team-app']));
  });

  it('a table written before the partition existed is rebuilt automatically, with a warning', async () => {
    const { lancedb, arrow } = await loadLancedb();
    const db = await lancedb.connect(shared());
    const { Field, Schema, Utf8 } = arrow;
    const old = new Schema(
      [new Field('chunk_id', new Utf8(), false), new Field('pool', new Utf8(), false)],
      new Map([['cairn.format', '1']]),
    );
    await db.createEmptyTable('cairn_chunks', old);
    await db.createEmptyTable('cairn_chunks_files', old);
    db.close();
    const a = open(checkouts.appA);
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(a.warnings.join('\n')).toMatch(/rebuilding the LanceDB index .*another index format/);
    expect((await storedRows()).map((r) => r.project)).toEqual([defaultRepo(checkouts.appA)]);
  });
});

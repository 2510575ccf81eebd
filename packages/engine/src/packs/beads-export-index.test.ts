import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBeadsIndex, parseBeadsExport } from './beads-export';
import { BeadsExportIndex } from './beads-export-index';
import { parentOf } from './beads-issue';
import { planningCandidates } from './planning-plane';

const parent = (id: string, of: string) => ({
  issue_id: id,
  depends_on_id: of,
  type: 'parent-child',
});

/** Every way a line can go wrong or be overridden, beside ordinary issues. */
const LINES = [
  '{"id":"bd-1","title":"epic","issue_type":"epic"}',
  JSON.stringify({ id: 'bd-2', title: 'child', dependencies: [parent('bd-2', 'bd-1')] }),
  '{not json',
  '{"title":"no id"}',
  '[1,2,3]',
  '{"id":"bd-3","title":42}',
  '   ',
  // Another field order, and an escaped id: the scan falls back to JSON.parse.
  '{"title":"late id","id":"bd-4","dependencies":[{"depends_on_id":"bd-1","type":"parent-child"}]}',
  '{"id":"bd-\\u0035","title":"escaped id"}',
  // A good line, then a bad one for the same id: the good one stands.
  '{"id":"bd-6","title":"first"}',
  '{"id":"bd-6","title":',
  // Updated, then deleted, then back.
  '{"id":"bd-7","title":"v1"}',
  '{"id":"bd-7","title":"gone","status":"tombstone"}',
  '{"id":"bd-8","title":"v1"}',
  '{"id":"bd-8","title":"gone","status":"tombstone"}',
  '{"id":"bd-8","title":"v3","status":"in_progress"}',
  // A duplicate key: JSON.parse keeps the last one.
  '{"id":"bd-9","id":"bd-10","title":"two ids"}',
  '{"id":"bd-3","title":"bd-3 fixed","priority":"high","dependencies":"nope"}',
  '',
];
const TEXT = `${LINES.join('\n')}\n`;
const IDS = ['bd-1', 'bd-2', 'bd-3', 'bd-4', 'bd-5', 'bd-6', 'bd-7', 'bd-8', 'bd-9', 'bd-10', 'x'];

describe('BeadsExportIndex: the lazy index answers as the full parse', () => {
  it('gives the same issue for every id, and counts the same skipped lines', () => {
    const full = parseBeadsExport(TEXT, '.beads/issues.jsonl');
    const index = new BeadsExportIndex(TEXT);
    for (const id of IDS) expect(index.get(id), id).toEqual(full.issues.get(id));
    expect(index.skippedLines).toBe(full.skippedLines);
    expect(full.skippedLines).toBe(5);
  });

  it('finds the children of an issue as the full parse links them', () => {
    const full = parseBeadsExport(TEXT, '.beads/issues.jsonl');
    const expected = [...full.issues.values()]
      .filter((i) => parentOf(i) === 'bd-1')
      .map((i) => i.id);
    expect(new BeadsExportIndex(TEXT).children('bd-1').sort()).toEqual(expected.sort());
    expect(expected.sort()).toEqual(['bd-2', 'bd-4']);
  });
});

describe('openBeadsIndex: one read per version of the file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-beads-index-'));
    await mkdir(join(dir, '.beads'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const write = (text: string) => writeFile(join(dir, '.beads', 'issues.jsonl'), text);

  const age = async (secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    await utimes(join(dir, '.beads', 'issues.jsonl'), when, when);
  };
  const load = async () => {
    const opened = await openBeadsIndex(dir);
    if (!opened.found) throw new Error(opened.reason);
    return opened.load();
  };

  it('reuses the index while the file is unchanged and reads it again once it changes', async () => {
    await write('{"id":"bd-1","title":"one"}\n');
    await age(3600);
    const first = await load();
    expect(await load()).toBe(first);
    // Same size, new content: the mtime and ctime tell it apart.
    await write('{"id":"bd-1","title":"uno"}\n');
    await age(7200);
    expect((await load()).get('bd-1')?.title).toBe('uno');
    await write('{"id":"bd-1","title":"one"}\n{"id":"bd-2","title":"two"}\n');
    await age(3600);
    expect((await load()).get('bd-2')?.title).toBe('two');
  });

  it('does not keep the index of a file written moments ago (file times are coarse)', async () => {
    await write('{"id":"bd-1","title":"one"}\n');
    expect((await load()).get('bd-1')?.title).toBe('one');
    await write('{"id":"bd-1","title":"uno"}\n');
    expect((await load()).get('bd-1')?.title).toBe('uno');
  });

  it('reports corrupt lines when it reads the export for a named issue', async () => {
    await write(TEXT);
    const named = await planningCandidates({
      projectRoot: dir,
      planningRef: 'bd-2',
      env: { PATH: '' },
    });
    expect(named.items.map((item) => item.id)).toEqual(['beads:bd-2', 'beads:bd-1', 'beads:bd-4']);
    expect(named.skippedLines).toBe(5);
  });
});

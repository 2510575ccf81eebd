import { CairnError } from '@cairn/core';
import { expectCode, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSearchIndex, type SearchIndex } from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

let project: TempProject;
let index: SearchIndex;
beforeEach(async () => {
  project = await makeTempProject();
  await writeWorkspaceFile(project.root, 'MEMORY.md', '# Project memory\n');
  index = openSearchIndex(project.root);
});
afterEach(async () => {
  index.close();
  await project.cleanup();
});

const write = (path: string, text: string) => writeWorkspaceFile(project.root, path, text);
const MARKER = /cairn:|<!--|-->/;

describe('search index: chunks', () => {
  it('indexes one managed unit as one chunk, with its metadata and no marker text', async () => {
    const body = 'Use pnpm for dependency management.\nWorkspaces keep the lockfile small.';
    await write('2026-03-01.md', unit(1, body, { category: 'preference', source: 'cli' }));
    const hits = await index.search({ query: 'pnpm lockfile' });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({
      kind: 'UNIT',
      memoryId: unitId(1),
      category: 'preference',
      createdAt: '2026-03-01T10:00:00.000Z',
      path: '2026-03-01.md',
      startLine: 1,
      endLine: 4,
    });
    expect(hits[0]!.snippet).toBe(body.replace('\n', ' '));
    expect(await index.search({ query: 'item start review approved created_at' })).toEqual([]);
  });

  it('indexes raw markdown as RAW chunks and never returns marker lines', async () => {
    await write(
      'MEMORY.md',
      '# Project memory\n\n<!-- cairn:head:start -->\nhead line about zebras\n<!-- cairn:head:end -->\n',
    );
    await write('threads/main.md', `Raw zebra note.\n\n${unit(2, 'A zebra unit.')}`);
    const hits = await index.search({ query: 'zebra zebras head cairn' });
    expect(hits.map((h) => h.kind).sort()).toEqual(['RAW', 'RAW', 'UNIT']);
    for (const hit of hits) expect(hit.snippet).not.toMatch(MARKER);
  });

  it('never merges raw text across a ---- line or a unit', async () => {
    await write(
      '2026-03-02.md',
      [
        'alpha paragraph',
        '',
        '----',
        '',
        'bravo paragraph',
        '',
        unit(3, 'charlie unit').trimEnd(),
        '',
        'delta paragraph',
        '',
      ].join('\n'),
    );
    const hits = await index.search({ query: 'alpha bravo charlie delta', limit: 10 });
    const words = hits.map((h) => h.snippet.match(/alpha|bravo|charlie|delta/g) ?? []);
    expect(words.map((w) => w.length)).toEqual([1, 1, 1, 1]);
    const alpha = hits.find((h) => h.snippet.includes('alpha'))!;
    expect([alpha.startLine, alpha.endLine]).toEqual([1, 1]);
  });

  it('indexes a damaged unit (unterminated marker) as RAW text', async () => {
    const damaged = unit(4, 'Rotate the staging keys weekly.').split('\n').slice(0, 2).join('\n');
    await write('2026-03-03.md', `${damaged}\nmore text after it\n`);
    const hits = await index.search({ query: 'staging keys' });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ kind: 'RAW', path: '2026-03-03.md' });
    expect(hits[0]!.memoryId).toBeUndefined();
    expect(hits[0]!.snippet).toBe('Rotate the staging keys weekly. more text after it');
  });

  it('bounds snippets and centres them on the first matching term', async () => {
    const filler = 'Unrelated filler words about nothing. '.repeat(30);
    await write('2026-03-04.md', `${filler}The quokka migration ran twice. ${filler}\n`);
    const [hit] = await index.search({ query: 'quokka', snippetChars: 80 });
    expect(hit!.snippet).toContain('quokka');
    expect(hit!.snippet.length).toBeLessThanOrEqual(80);
    expect(hit!.snippet.startsWith('…')).toBe(true);
  });

  it('matches stems and ranks fuller matches first; stop words alone return nothing', async () => {
    await write(
      '2026-03-05.md',
      `${unit(5, 'We deployed the canary.')}${unit(6, 'Deploy notes.')}`,
    );
    const hits = await index.search({ query: 'deploying canary' });
    expect(hits.map((h) => h.memoryId)).toEqual([unitId(5), unitId(6)]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(await index.search({ query: 'what is the of and' })).toEqual([]);
    expect(await index.search({ query: '"OR" NEAR( * -- ' })).toEqual([]);
  });
});

describe('search index: filters', () => {
  beforeEach(async () => {
    await write(
      '2026-03-01.md',
      [
        unit(1, 'ferret decision early', { createdAt: '2026-03-01T09:00:00.000Z' }),
        unit(2, 'ferret fact', { category: 'fact', createdAt: '2026-03-10T09:00:00.000Z' }),
        unit(3, 'ferret draft', { review: 'draft', createdAt: '2026-03-20T09:00:00.000Z' }),
        unit(4, 'ferret retired', { review: 'deprecated' }),
        'ferret raw note\n',
      ].join(''),
    );
    await write('threads/main.md', 'ferret thread note\n');
  });

  const ids = async (filters: object) =>
    (await index.search({ query: 'ferret', filters })).map((h) => h.memoryId ?? h.path).sort();

  it('leaves deprecated units out unless asked', async () => {
    expect(await ids({})).toEqual([
      '2026-03-01.md',
      unitId(1),
      unitId(2),
      unitId(3),
      'threads/main.md',
    ]);
    expect(await ids({ includeDeprecated: true })).toContain(unitId(4));
    expect(await ids({ review: ['deprecated'] })).toEqual([unitId(4)]);
  });

  it('filters by category, kind and review', async () => {
    expect(await ids({ category: ['fact'] })).toEqual([unitId(2)]);
    expect(await ids({ kind: ['RAW'] })).toEqual(['2026-03-01.md', 'threads/main.md']);
    expect(await ids({ kind: ['UNIT'] })).toEqual([unitId(1), unitId(2), unitId(3)]);
    expect(await ids({ review: ['draft', 'approved'] })).toEqual([unitId(1), unitId(2), unitId(3)]);
  });

  it('filters by creation date (RAW text has none) and by path prefix', async () => {
    expect(await ids({ since: '2026-03-10' })).toEqual([unitId(2), unitId(3)]);
    expect(await ids({ until: '2026-03-10T09:00:00Z' })).toEqual([unitId(1)]);
    expect(await ids({ since: '2026-03-05', until: '2026-03-15' })).toEqual([unitId(2)]);
    expect(await ids({ path: 'threads/' })).toEqual(['threads/main.md']);
    expect(await ids({ path: '2026-03-', kind: ['RAW'] })).toEqual(['2026-03-01.md']);
  });

  it('rejects bad options with INVALID_INPUT', async () => {
    for (const bad of [
      { query: '   ' },
      { query: 'x', limit: 0 },
      { query: 'x', snippetChars: 5 },
      { query: 'x', filters: { since: 'last tuesday' } },
      { query: 'x', filters: { category: ['mood'] } },
      { query: 'x', extra: true },
    ]) {
      const error = await expectCode(index.search(bad as never), 'INVALID_INPUT');
      expect(CairnError.isInstance(error)).toBe(true);
    }
  });
});

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemorySearchResult } from '@cairn/core';
import { makeStalenessRepo, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { openMaintenance } from '../maintenance';
import { documentCandidates, recallUnits, type SearchMemoryFn, staleMarks } from './recall-planes';
import { renderPackItem } from './render-pack';
import { retrieveContextPack } from './retrieve-context-pack';

/** A unit hit; `review` undefined for an index that does not report it. */
const hit = (n: number, review?: string): MemorySearchResult => ({
  path: '2026-05-01.md',
  startLine: n,
  endLine: n,
  score: 100 - n,
  snippet: `unit ${n}`,
  memoryId: `UNIT:${n}`,
  kind: 'UNIT',
  ...(review ? { review } : {}),
});

/** A search over fixed hits that honours the review filter and the limit, and logs each call. */
function searchOver(hits: MemorySearchResult[], reported = true) {
  const calls: string[][] = [];
  const search: SearchMemoryFn = async ({ limit = 10, filters }) => {
    const wanted = filters?.review ?? [];
    calls.push([...wanted]);
    return hits
      .filter((h) => wanted.includes(h.review ?? ''))
      .slice(0, limit)
      .map((h) => (reported ? h : { ...h, review: undefined }));
  };
  return { search, calls };
}

describe('recallUnits', () => {
  it('takes every review state from one recall when it holds enough approved units', async () => {
    const hits = [hit(1, 'draft'), ...Array.from({ length: 14 }, (_, i) => hit(i + 2, 'approved'))];
    const { search, calls } = searchOver(hits);
    const units = await recallUnits(search, 'deploy');
    expect(calls).toHaveLength(1);
    expect(units.filter((u) => u.review === 'approved')).toHaveLength(12);
    expect(units.find((u) => u.review === 'draft')?.hit.memoryId).toBe('UNIT:1');
  });

  it('asks for approved units alone when drafts filled the first recall', async () => {
    const drafts = Array.from({ length: 20 }, (_, i) => hit(i + 1, 'draft'));
    const { search, calls } = searchOver([...drafts, hit(30, 'approved')]);
    const units = await recallUnits(search, 'deploy');
    expect(calls).toEqual([['approved', 'draft', 'deprecated'], ['approved']]);
    expect(units.filter((u) => u.review === 'approved').map((u) => u.hit.memoryId)).toEqual([
      'UNIT:30',
    ]);
    expect(units.filter((u) => u.review === 'draft')).toHaveLength(4);
  });

  it('asks once per state an index that does not report review states', async () => {
    const { search, calls } = searchOver([hit(1, 'approved'), hit(2, 'deprecated')], false);
    const units = await recallUnits(search, 'deploy');
    expect(calls).toEqual([
      ['approved', 'draft', 'deprecated'],
      ['approved'],
      ['draft'],
      ['deprecated'],
    ]);
    expect(units.map((u) => [u.hit.memoryId, u.review])).toEqual([
      ['UNIT:1', 'approved'],
      ['UNIT:2', 'deprecated'],
    ]);
  });
});

/**
 * Packs show staleness (docs/PACKS.md "Stale units"): a unit whose cited
 * code changed since it was anchored, or is gone, carries a mark in the
 * injected text and in its reason; a fresh unit carries none; a
 * deprecated unit is never injected.
 */
describe('stale units in a pack', () => {
  let project: TempProject;
  let cairn: Cairn | undefined;
  afterEach(async () => {
    cairn?.closeWorking();
    await project.cleanup();
  });

  async function setUp() {
    project = await makeTempProject();
    const home = join(project.root, 'home');
    const repo = makeStalenessRepo(join(project.root, 'repo'), home);
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    cairn = await openCairn(repo.dir, { env, homeDir: home, overrides: { timezone: 'UTC' } });
    await cairn.init();
    const text = (name: string) => repo.cases.find((c) => c.name === name)!.text;
    const ids = {
      changed: (await cairn.add({ text: text('body changed'), category: 'fact' })) as {
        memoryId: string;
      },
      deleted: (await cairn.add({ text: text('file and function deleted'), category: 'fact' })) as {
        memoryId: string;
      },
      fresh: (await cairn.add({ text: text('untouched function'), category: 'fact' })) as {
        memoryId: string;
      },
    };
    const deprecated = await cairn.add({
      text: 'Money is formatted by `formatMoney` in src/util/format.ts with a dollar sign.',
      category: 'fact',
      review: 'deprecated',
    });
    return { repo, env, ids, deprecated: deprecated as { memoryId: string } };
  }

  const pack = (query: string) =>
    retrieveContextPack(
      { query, agentId: 'claude', budgetTokens: 2000, planes: ['long-term'] },
      { rootDir: cairn!.rootDir, settings: cairn!.settings, search: cairn!.search },
    );

  it('marks changed and deleted units, text and reason; fresh ones stay as they are', async () => {
    const { repo, env, ids } = await setUp();
    const maintenance = openMaintenance(cairn!, { env });
    // The units are anchored at the first commit; then the code moves on and is checked again.
    await maintenance.anchorChecks();
    const anchoredAt = repo.git('rev-parse', '--short=7', 'HEAD');
    // Nothing is marked before a check of the current HEAD.
    repo.advance();
    const before = await pack('verifyToken signed token');
    expect(before.text).toContain('`verifyToken` in src/auth/tokens.ts');
    expect(before.text).not.toContain('Code changed since');
    await maintenance.anchorChecks();

    const changed = await pack('verifyToken signed token');
    const item = changed.items.find((i) => i.id === ids.changed.memoryId);
    expect(item?.text).toMatch(new RegExp(`^Code changed since ${anchoredAt}: `));
    expect(item?.why).toContain(`Code changed since ${anchoredAt}`);
    expect(changed.text).toContain(`Code changed since ${anchoredAt}: \`verifyToken\``);

    const deleted = await pack('importLegacyCsv CSV exports');
    const gone = deleted.items.find((i) => i.id === ids.deleted.memoryId);
    expect(gone?.text).toContain(
      'Possibly stale (src/legacy/importer.ts `importLegacyCsv` is gone): Old CSV exports',
    );
    expect(gone?.why).toContain('Possibly stale');

    const fresh = await pack('loadConfig config files');
    const kept = fresh.items.find((i) => i.id === ids.fresh.memoryId);
    expect(kept?.text).toMatch(/^Config files are read by/);
    expect(kept?.why).not.toMatch(/stale|changed/i);
  });

  it('never injects a deprecated unit, whatever its code', async () => {
    const { env, deprecated } = await setUp();
    await openMaintenance(cairn!, { env }).anchorChecks();
    const result = await pack('formatMoney dollar sign');
    expect(result.items.map((i) => i.id)).not.toContain(deprecated.memoryId);
    expect(result.excluded).toContainEqual(
      expect.objectContaining({ id: deprecated.memoryId, reason: 'draft-or-deprecated' }),
    );
  });

  it('reads nothing where no check ever ran', async () => {
    project = await makeTempProject();
    expect(staleMarks(project.root).size).toBe(0);
  });
});

const SECTION = [
  'Progress events',
  '---------------',
  '',
  `The progress callback reports every chunk. ${'It is called with a progress object and the chunk. '.repeat(6)}`,
  '',
  '```js',
  'const response = await ky(url, {',
  '  onDownloadProgress(progress, chunk) {',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the document's code is JavaScript
  '    console.log(`${progress.percent * 100}% done`);',
  '  },',
  '});',
  '```',
].join('\n');

describe('the documents plane', () => {
  let project: TempProject;
  let cairn: Cairn;
  beforeEach(async () => {
    project = await makeTempProject('cairn-documents-plane-');
    cairn = await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') });
    await cairn.init();
  });
  afterEach(async () => {
    cairn.closeWorking();
    await project.cleanup();
  });

  it('quotes a whole section of readme.md, code block included, named path#heading', async () => {
    // The reproduction of the issue: `readme.md` was missed by `README*`, and a section was cut
    // at about 320 characters, before the code that answers.
    await writeFile(
      join(project.root, 'readme.md'),
      `# Ky\n\nIntro.\n\n${SECTION}\n\n## Other\n\nUnrelated.\n`,
    );
    const [first] = await documentCandidates(
      (query) => cairn.recall(query),
      'onDownloadProgress progress callback chunk',
      'claude',
    );
    expect(first).toMatchObject({
      plane: 'documents',
      trustClass: 'raw',
      provenance: { kind: 'document', id: 'readme.md#Progress events', file: 'readme.md', line: 5 },
    });
    expect(first!.text.length).toBeGreaterThan(320);
    expect(first!.text).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the document's code is JavaScript
      'console.log(`${progress.percent * 100}% done`);\n  },\n});\n```',
    );
    const rendered = renderPackItem(first!);
    expect(rendered).toMatch(/^- \[project document, quoted · document readme\.md#Progress events/);
    expect(rendered).toContain('  > ```js');
    expect(rendered).not.toMatch(/untrusted|\\[#`]/);
    const status = await cairn.status();
    const pools = status.retrievalAdapter.status?.details?.enginePools as {
      id: string;
      documents?: number;
      sections?: number;
    }[];
    expect(pools.find((pool) => pool.id === 'documents')).toMatchObject({
      documents: 1,
      sections: 3,
    });
  });
});

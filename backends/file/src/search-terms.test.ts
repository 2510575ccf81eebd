import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnIndexPath, cairnPath } from '@cairn/core';
import { queryTerms, workspacePoolTarget } from '@cairn/index-kit';
import { openSqlite } from '@cairn/sqlite';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileBackend, openSearchIndex, type SearchIndex } from './index';
import { SEARCH_INDEX_SCHEMA_VERSION } from './index-schema';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

let project: TempProject;
let index: SearchIndex;
beforeEach(async () => {
  project = await makeTempProject();
  index = openSearchIndex(project.root);
});
afterEach(async () => {
  index.close();
  await project.cleanup();
});

const day = (texts: string[], file = '2026-03-01.md', first = 1) =>
  writeWorkspaceFile(project.root, file, texts.map((text, i) => unit(first + i, text)).join('\n'));

const ids = async (query: string, limit = 10) =>
  (await index.search({ query, limit })).map((hit) => hit.memoryId);

describe('search: code-aware terms', () => {
  it('finds a camelCase identifier by its words, and ranks the exact form first', async () => {
    await day([
      'onDownloadProgress in src/http/fetch-client.ts only reports a total with Content-Length.',
      'The download page shows the progress of the nightly build.',
      'Unrelated: the team lunch is on Friday.',
    ]);
    expect((await ids('download progress')).slice(0, 2).sort()).toEqual([unitId(1), unitId(2)]);
    expect((await ids('onDownloadProgress'))[0]).toBe(unitId(1));
    expect((await ids('fetchClient'))[0]).toBe(unitId(1));
    expect((await ids('fetch-client.ts'))[0]).toBe(unitId(1));
    expect((await ids('src/http/fetch-client.ts'))[0]).toBe(unitId(1));
  });

  it('joins snake_case, kebab-case and dotted names, and keeps versions and codes whole', async () => {
    await day([
      'Refresh tokens rotate and live in the refresh_tokens table.',
      'The minimum supported Node version is v20.19.0, pinned in .nvmrc.',
      'Node 18 and 20 both ran the suite on the 19th.',
      'tsc reports TS2322 after the schema change: run pnpm codegen.',
      'The legacy import raises E11000 duplicate key errors.',
      'Above the limit the API answers 429 with Retry-After.',
      'ERR_PNPM_OUTDATED_LOCKFILE: commit pnpm-lock.yaml after pnpm install.',
    ]);
    expect((await ids('refreshtokens'))[0]).toBe(unitId(1));
    expect((await ids('node 20.19'))[0]).toBe(unitId(2));
    expect((await ids('v20.19'))[0]).toBe(unitId(2));
    expect((await ids('TS2322'))[0]).toBe(unitId(4));
    expect((await ids('e11000'))[0]).toBe(unitId(5));
    expect((await ids('429'))[0]).toBe(unitId(6));
    expect((await ids('err_pnpm_outdated_lockfile'))[0]).toBe(unitId(7));
    expect((await ids('outdated lockfile'))[0]).toBe(unitId(7));
  });
});

describe('search: the vocabulary gap', () => {
  it('finds who maintains a project when asked who owns it, and a status by its reason phrase', async () => {
    await day([
      'Sindre Sorhus maintains ky and reviews every pull request.',
      'The project started in 2018 as a wrapper around fetch.',
      'Above 100 requests a minute the API answers 429 with a Retry-After header.',
      'EMFILE when the watcher runs on macOS: raise ulimit -n.',
    ]);
    expect((await ids('who owns this project'))[0]).toBe(unitId(1));
    expect((await ids('too many requests'))[0]).toBe(unitId(3));
    expect((await ids('too many open files'))[0]).toBe(unitId(4));
  });

  it('uses a WordNet synonym only for a query word the notes never use', async () => {
    await day(['Commence the data migration after the freeze.', 'The freeze lasts a week.']);
    // "start" is in no note: WordNet's "commence" stands in for it.
    expect((await ids('start migration'))[0]).toBe(unitId(1));
    await day(['Start the backup before the migration.'], '2026-03-02.md', 3);
    // Now "start" is a word of the notes: its synonyms are left out.
    expect(await ids('start')).toEqual([unitId(3)]);
  });

  it('ranks the words of the query above their synonyms', async () => {
    await day(['The owner of the billing service is Priya.', 'Sam maintains the billing service.']);
    expect(await ids('who owns the billing service')).toEqual([unitId(1), unitId(2)]);
    expect(await ids('who maintains the billing service')).toEqual([unitId(2), unitId(1)]);
  });

  it("adds the project's own words from .cairn/glossary.json, and searches on without a broken one", async () => {
    await day(['Kestrel is our deploy pipeline.', 'The nightly report lists failed jobs.']);
    expect(await ids('release train')).toEqual([]);
    const file = join(cairnPath(project.root), 'glossary.json');
    await writeFile(file, JSON.stringify({ synonyms: [['release train', 'kestrel']] }));
    expect((await ids('release train'))[0]).toBe(unitId(1));
    await writeFile(file, JSON.stringify({ synonyms: [['alone']] }));
    await expect(ids('release train')).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    const warnings: string[] = [];
    const backend = createFileBackend({ onWarning: (message) => warnings.push(message) });
    const hits = await backend.search(project.root, { query: 'kestrel pipeline' });
    expect(hits[0]?.memoryId).toBe(unitId(1));
    expect(warnings.join('\n')).toMatch(/glossary.*INVALID_CONFIG.*synonyms/s);
    await backend.close();
  });
});

describe('search: what a hit matched', () => {
  it("lists the query's own words a hit holds, and scores relative to the best hit", async () => {
    await day([
      'Sindre maintains ky.',
      'The ky release notes live in the wiki.',
      'Lunch on Friday.',
    ]);
    const backend = createFileBackend();
    const text = 'who owns the ky release';
    const hits = await backend.indexFor(project.root).search({
      text,
      terms: queryTerms(text),
      pools: [workspacePoolTarget(project.root)],
      filters: {},
      limit: 10,
      postFiltered: false,
    });
    expect(hits.map((hit) => [hit.memoryId, hit.matchedTerms])).toEqual([
      [unitId(2), ['ky', 'release']],
      [unitId(1), ['ky']],
      [unitId(3), []],
    ]);
    expect(hits[0]!.score).toBe(1);
    expect(hits[1]!.score).toBeLessThan(1);
    await backend.close();
  });
});

describe('search: neighbours and views', () => {
  it('never ranks a chunk that matches only through its neighbours above one that holds the word', async () => {
    await day([
      'ESLint setup: eslint.config.js holds the eslint rules; run eslint --fix before a push.',
      'The CI cache is keyed by the lockfile hash.',
      'Pipelines run on every push to main.',
    ]);
    const long = Array.from({ length: 12 }, (_, i) => `step ${i} of the release checklist`);
    await day([`${long.join(', ')}, then eslint once more.`], '2026-03-02.md', 4);
    const hits = await index.search({ query: 'eslint', limit: 10 });
    // The two units that say "eslint" first, then their neighbours (found through them).
    expect(hits.map((hit) => hit.memoryId)).toEqual([unitId(1), unitId(4), unitId(2), unitId(3)]);
    for (let i = 1; i < hits.length; i += 1)
      expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('ranks the managed region of MEMORY.md, thread heads and templates below the units they render', async () => {
    await day(['The minimum supported Node version is 20.19.', 'Deploys run on Fridays.']);
    await writeWorkspaceFile(
      project.root,
      'MEMORY.md',
      [
        '# Project memory',
        '',
        '<!-- cairn:head:start -->',
        '## Decisions',
        '',
        '- The minimum supported Node version is 20.19.',
        '<!-- cairn:head:end -->',
        '',
        '## Notes',
        '',
        'Durable notes for this project. Cairn only rewrites the managed head region above;',
        'everything else in this file is yours.',
        '',
        '## Our own notes',
        '',
        'Ask Priya before changing the Node version in CI.',
        '',
      ].join('\n'),
    );
    await writeWorkspaceFile(
      project.root,
      'threads/claude-code.main.md',
      [
        '<!-- cairn:thread-head:start -->',
        '# Thread main',
        '',
        '**Status:** bumping the minimum supported Node version to 20.19',
        '<!-- cairn:thread-head:end -->',
        '',
      ].join('\n'),
    );
    await writeWorkspaceFile(
      project.root,
      'DREAMS.md',
      '# Dreams\n\nConsolidation diary: proposed memory changes wait here for human review.\n',
    );
    const hits = await index.search({ query: 'minimum supported Node version', limit: 10 });
    expect(hits[0]!.memoryId).toBe(unitId(1));
    const paths = hits.map((hit) => hit.path);
    // The user's own note in MEMORY.md is no view: it ranks before the rendered ones.
    expect(paths.indexOf('MEMORY.md')).toBe(
      hits.findIndex((hit) => hit.snippet.includes('Ask Priya')),
    );
    expect(paths.indexOf('threads/claude-code.main.md')).toBeGreaterThan(
      paths.indexOf('MEMORY.md'),
    );
    // The templates match, but below the user's own note that says "changing".
    const template = await index.search({ query: 'proposed changes for review', limit: 10 });
    expect(template[0]?.snippet).toContain('Ask Priya');
    expect(template.slice(1).map((hit) => hit.snippet)).toEqual([
      expect.stringContaining('proposed memory changes'),
      expect.stringContaining('Cairn only rewrites the managed head region'),
    ]);
  });
});

describe('search: the index format', () => {
  it('rebuilds an index written by an older schema, which had no derived terms', async () => {
    await day(['onDownloadProgress fires only with Content-Length.']);
    await index.refresh();
    index.close();
    const db = openSqlite(join(cairnIndexPath(project.root), 'search.sqlite'), 'the test index');
    const format = db.prepare("SELECT value FROM meta WHERE key = 'format'").pluck().get();
    expect(format).toMatch(new RegExp(`^v${SEARCH_INDEX_SCHEMA_VERSION}:`));
    db.prepare("UPDATE meta SET value = 'v6:chunk=400/60' WHERE key = 'format'").run();
    db.prepare("UPDATE chunks SET terms = ''").run();
    db.close();
    index = openSearchIndex(project.root);
    expect(await index.refresh()).toMatchObject({ filesRead: 1, filesChanged: 1 });
    expect(await ids('download progress')).toEqual([unitId(1)]);
  });
});

import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCairn } from '@cairn/engine';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
const cli = cliRunner(() => project.root);

beforeEach(async () => {
  project = await makeTempProject();
  expect(cli.run(['init']).code).toBe(0);
  for (const text of [
    'Deploys go through the kestrel pipeline on Fridays.',
    'The kestrel dashboard shows every pipeline run.',
    'We decided to keep release notes in the wiki.',
  ]) {
    expect(cli.run(['add', text]).code).toBe(0);
  }
});
afterEach(() => project.cleanup());

describe('cairn search (its own bundle, search-main.cjs)', () => {
  it('answers as openCairn().search does, in the same order, as JSON and text', async () => {
    const printed = cli.run(['search', 'kestrel', 'pipeline', '--limit', '5', '--json']);
    expect(printed.code).toBe(0);
    const { ok, results } = JSON.parse(printed.stdout);
    const expected = await (await openCairn(project.root)).search({
      query: 'kestrel pipeline',
      limit: 5,
    });
    expect(ok).toBe(true);
    expect(results).toEqual(JSON.parse(JSON.stringify(expected)));
    // The third hit matches through its neighbour's text (see docs/SEARCH.md).
    expect(results.slice(0, 2).map((r: { snippet: string }) => r.snippet)).toEqual([
      expect.stringContaining('kestrel pipeline'),
      expect.stringContaining('kestrel dashboard'),
    ]);
    const text = cli.run(['search', 'wiki']);
    expect(text.stdout).toMatch(
      /^\d+\.\d\d {2}UNIT:[0-9a-f-]+ {2}\d{4}-\d\d-\d\d\.md:\d+ {2}\[decision, approved\]\n {2}We decided/,
    );
    expect(cli.run(['search', 'nothing-like-this']).stdout).toBe('(no results)\n');
  });

  it('refuses bad input with exit 2, and a bad config with exit 3, changing nothing', async () => {
    const before = await snapshotTree(project.root);
    for (const args of [
      ['search', 'kestrel', '--limit', '0'],
      ['search', 'kestrel', '--since', 'yesterday-ish'],
      ['search', 'kestrel', '--frobnicate'],
      ['search'],
    ]) {
      const run = cli.run(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^cairn: INVALID_INPUT: /);
    }
    const json = cli.run(['search', '   ', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.parse(json.stdout).error.message).toContain('query must not be empty');
    expect(await snapshotTree(project.root)).toEqual(before);

    await writeFile(
      join(project.root, '.cairn/config.json'),
      JSON.stringify({ limits: { searchLimit: 0 } }),
    );
    const withConfig = await snapshotTree(project.root);
    const config = cli.run(['search', 'kestrel']);
    expect(config.code).toBe(3);
    expect(config.stderr).toMatch(/INVALID_CONFIG: .*limits\.searchLimit.*Too small/);
    expect(await snapshotTree(project.root)).toEqual(withConfig);
  });

  it('prints --help for search and warns about a backend that is not registered', () => {
    const help = cli.run(['search', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cairn search <query\.\.\.>/);
    const run = cli.run(['search', 'kestrel'], undefined, { CAIRN_RETRIEVAL_ADAPTER: 'weaviate' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('kestrel pipeline');
    expect(run.stderr).toMatch(/^cairn: warning: .*"weaviate"/m);
  });

  it('holds the search alone: no classic zod, unit store, lineage, working memory or harnesses', () => {
    const map = fileURLToPath(new URL('../dist/search-main.cjs.map', import.meta.url));
    const sources = (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
    expect(sources.some((source) => source.includes('backends/file/src/search-index.ts'))).toBe(
      true,
    );
    const unwanted = sources.filter((source) =>
      /zod\/v4\/classic|engine\/src\/(units|lineage|working|summaries)\/|harnesses\/|packages\/mcp\//.test(
        source,
      ),
    );
    expect(unwanted).toEqual([]);
  });
});

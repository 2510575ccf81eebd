import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
const cli = cliRunner(() => project.root);

beforeEach(async () => {
  project = await makeTempProject();
  expect(cli.run(['init']).code).toBe(0);
  for (const text of [
    'onDownloadProgress in source/core/Ky.ts reports transferredBytes and totalBytes.',
    'Sindre Sorhus maintains ky and reviews every pull request.',
    'Retries use exponential backoff; a 429 answer waits for its Retry-After header.',
    'The tests run on Node 20 and 22 with AVA.',
  ]) {
    expect(cli.run(['add', text]).code).toBe(0);
  }
});
afterEach(() => project.cleanup());

/** The snippets `cairn search --json --limit 3` returns, best first. */
function top3(...query: string[]): string[] {
  const run = cli.run(['search', ...query, '--json', '--limit', '3']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout).results.map((r: { snippet: string }) => r.snippet);
}

describe('cairn search: what a developer means', () => {
  it('finds onDownloadProgress when asked about "download progress"', () => {
    expect(top3('download', 'progress')[0]).toContain('onDownloadProgress');
  });

  it('finds who maintains the project when asked who owns it', () => {
    expect(top3('who owns this project')[0]).toContain('Sindre Sorhus maintains ky');
  });

  it('finds an HTTP status by its reason phrase, and a project word from .cairn/glossary.json', async () => {
    expect(top3('too many requests')[0]).toContain('429');
    expect(top3('kestrel')).toEqual([]);
    await writeFile(
      join(project.root, '.cairn/glossary.json'),
      JSON.stringify({ synonyms: [['kestrel', 'ava']] }),
    );
    expect(top3('kestrel')[0]).toContain('AVA');
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..', '..');

describe('README', () => {
  it('lists every page in docs/', () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const pages = readdirSync(join(repo, 'docs')).filter((name) => name.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(10);
    const missing = pages.filter((page) => !readme.includes(`](docs/${page})`));
    expect(missing, 'add a line for each to the "Docs" list of README.md').toEqual([]);
  });

  it("says how to put a checkout's `cairn` on PATH and use it on another repository", () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    expect(readme).toContain('packages/cli/dist/bin.cjs');
    expect(readme).toMatch(/cairn init && cairn install/);
  });
});

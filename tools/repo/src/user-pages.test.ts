import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './workspace-packages';

/*
 * User pages say the rule, not where a spec or a tracker wrote it down: a
 * reader of the docs or of a package's README has neither the design specs
 * (they stay in docs/specs/) nor the issue tracker. A spec section number
 * ("§3.1", "seed 004 §6.2"), a spec named by number ("seed 003") or an
 * issue number ("issue 15") in one of these pages fails here.
 */

const CITATIONS: { what: string; pattern: RegExp }[] = [
  { what: 'a spec section number', pattern: /§\s?\d/ },
  { what: 'a spec cited by number', pattern: /\bseed \d{3}\b/i },
  { what: 'an issue number', pattern: /\bissues? #?\d+/i },
];

/** docs/*.md, the README, and the README of every package, backend and harness. */
function userPages(): string[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  const readmes = ['packages', 'backends', 'harnesses'].flatMap((group) =>
    readdirSync(join(REPO_ROOT, group))
      .map((name) => join(group, name, 'README.md'))
      .filter((path) => statSync(join(REPO_ROOT, path), { throwIfNoEntry: false })),
  );
  return ['README.md', ...docs, ...readmes];
}

/** Every line of `text` that cites a spec section, a spec or an issue, as `path:line: what: text`. */
function citationsIn(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      CITATIONS.filter(({ pattern }) => pattern.test(line)).map(
        ({ what }) => `${path}:${index + 1}: ${what}: ${line.trim()}`,
      ),
    );
}

describe('user pages', () => {
  it('covers the docs and every package README', () => {
    const pages = userPages();
    expect(pages).toContain('docs/CONCEPTS.md');
    expect(pages).toContain('packages/core/README.md');
    expect(pages).toContain('backends/file/README.md');
    expect(pages).toContain('harnesses/codex/README.md');
  });

  it('cite no spec section, spec number or issue number', () => {
    const found = userPages().flatMap((path) =>
      citationsIn(path, readFileSync(join(REPO_ROOT, path), 'utf8')),
    );
    expect(found, 'say the rule in plain words instead (specs stay in docs/specs/)').toEqual([]);
  });

  it('tells a citation from a random seed, a label and a count of issues', () => {
    expect(citationsIn('x.md', 'Headings like ## MemoryBackend (seed 000 §3.1)')).toHaveLength(2);
    expect(citationsIn('x.md', 'per seed 004 §6.2–6.3')).toHaveLength(2);
    expect(citationsIn('x.md', 'the units of seed 003')).toHaveLength(1);
    expect(citationsIn('x.md', 'learned per family (issue 15 point 3)')).toHaveLength(1);
    expect(citationsIn('x.md', 'see Issues 13 and 14')).toHaveLength(1);
    expect(citationsIn('x.md', 'generator v1, seed 20261125')).toEqual([]);
    expect(citationsIn('x.md', 'the label `run <id> § pattern …`')).toEqual([]);
    expect(citationsIn('x.md', 'a generated 500-issue Beads export')).toEqual([]);
  });
});

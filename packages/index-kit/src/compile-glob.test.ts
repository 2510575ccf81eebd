import { describe, expect, it } from 'vitest';
import { compileGlob, expandBraces } from './compile-glob';
import { gitignoreMatcher, globMatcher } from './document-source';

describe('compileGlob', () => {
  it('matches picomatch syntax: *, **, ?, classes, braces, letter case, hidden names', () => {
    const glob = (pattern: string) => globMatcher(pattern);
    expect(glob('README*').test('readme.md')).toBe(true);
    expect(glob('README*').test('README')).toBe(true);
    expect(glob('README*').test('docs/README.md')).toBe(false);
    expect(glob('docs/**').test('docs/a/b/c.md')).toBe(true);
    expect(glob('docs/**').test('docs/.hidden/c.md')).toBe(false);
    expect(glob('**/*.md').test('a.md')).toBe(true);
    expect(glob('**/*.md').test('x/y/a.md')).toBe(true);
    expect(glob('**/*.md').test('x/.y.md')).toBe(false);
    expect(glob('.github/*.md').test('.github/a.md')).toBe(true);
    expect(glob('doc?/*.md').test('docs/a.md')).toBe(true);
    expect(glob('doc?/*.md').test('doc/a.md')).toBe(false);
    expect(glob('adr/[0-9]*.md').test('adr/0001-x.md')).toBe(true);
    expect(glob('adr/[!0-9]*.md').test('adr/0001-x.md')).toBe(false);
    // As in bash and git: a negated class never matches the dot of a hidden name.
    expect(glob('[!a]*.md').test('.b.md')).toBe(false);
    expect(glob('[^a]*.md').test('b.md')).toBe(true);
    expect(glob('{docs,adr}/*.{md,txt}').test('ADR/x.TXT')).toBe(true);
    expect(glob('{docs,adr}/*.{md,txt}').test('src/x.md')).toBe(false);
    expect(glob('a\\*b.md').test('a*b.md')).toBe(true);
    expect(glob('a\\*b.md').test('axb.md')).toBe(false);
    expect(expandBraces('{a,{b,c}}-{1,2}')).toEqual(['a-1', 'a-2', 'b-1', 'b-2', 'c-1', 'c-2']);
    // Twenty groups would be a million alternatives: the first 64 are kept.
    expect(expandBraces('{a,b}'.repeat(20))).toHaveLength(64);
  });

  it('takes linear time on globs that make a backtracking regex explode', () => {
    // As a regex, `*a*a…*b` against forty `a`s tries billions of splits; here it is one pass.
    const stars = `${'*a'.repeat(14)}*b`;
    const path = `docs/${'a'.repeat(4000)}.md`;
    expect(globMatcher(`**/${stars}`).test(path)).toBe(false);
    expect(globMatcher(`{${stars},${stars}x}`).test(path)).toBe(false);
    expect(gitignoreMatcher(`${stars}\n`)(path, false)).toBe(false);
    expect(compileGlob(`**/${stars}`).test(`${'a/'.repeat(2000)}b`)).toBe(false);
    expect(gitignoreMatcher(`${stars}\n`)(`docs/${'a'.repeat(40)}b`, false)).toBe(true);
  });

  it('reads .gitignore lines with long trailing white space in one pass, escaped spaces kept', () => {
    const ignored = gitignoreMatcher(`a${' '.repeat(100_000)}x\nkeep\\ ${' '.repeat(10)}\nlog  \n`);
    expect(ignored('log', false)).toBe(true);
    expect(ignored('keep ', false)).toBe(true);
    expect(ignored('keep', false)).toBe(false);
    // A line longer than any path is skipped.
    expect(gitignoreMatcher(`${'x'.repeat(5000)}\n`)('x'.repeat(5000), false)).toBe(false);
  });
});

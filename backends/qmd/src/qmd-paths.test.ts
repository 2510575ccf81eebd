import { describe, expect, it } from 'vitest';
import { canonicalPaths, handleKey, normalizeQmdPath, parseQmdLocation } from './qmd-paths';

const canonical = canonicalPaths([
  'MEMORY.md',
  'DREAMS.md',
  '2026-03-01.md',
  'memory-insights.md',
  'threads/feat_x.branch.md',
]);
const base = '/work/project/.cairn/memory';

describe('qmd path normalization', () => {
  it('parses qmd URIs, with a named index, encoding and Windows separators', () => {
    expect(parseQmdLocation('qmd://ws/threads/feat_x.md?index=cairn')).toEqual({
      collection: 'ws',
      path: 'threads/feat_x.md',
    });
    expect(parseQmdLocation('qmd://ws/a%20b.md')).toEqual({ collection: 'ws', path: 'a b.md' });
    expect(parseQmdLocation('threads\\x.md')).toEqual({
      collection: undefined,
      path: 'threads/x.md',
    });
  });

  it('keeps canonical names as they are', () => {
    for (const path of ['MEMORY.md', '2026-03-01.md', 'threads/feat_x.branch.md']) {
      expect(normalizeQmdPath(path, canonical, base)).toBe(path);
    }
  });

  it('maps lowercased, handelized, prefixed and absolute paths back', () => {
    const cases: [string, string][] = [
      ['memory.md', 'MEMORY.md'],
      ['Dreams.md', 'DREAMS.md'],
      ['threads/feat-x-branch.md', 'threads/feat_x.branch.md'],
      ['.cairn/memory/2026-03-01.md', '2026-03-01.md'],
      ['memory/MEMORY.md', 'MEMORY.md'],
      ['./memory-insights.md', 'memory-insights.md'],
      [`${base}/MEMORY.md`, 'MEMORY.md'],
      ['other/checkout/.cairn/memory/memory.md', 'MEMORY.md'],
    ];
    for (const [stale, expected] of cases) {
      expect(normalizeQmdPath(stale, canonical, base)).toBe(expected);
    }
  });

  it('drops paths that name no existing workspace file', () => {
    for (const path of ['2020-01-01.md', 'notes.md', '../MEMORY.md.bak', 'threads/other.md', '']) {
      expect(normalizeQmdPath(path, canonical, base)).toBeUndefined();
    }
  });

  it('handle keys follow qmd: lowercase, other characters become dashes, extension kept', () => {
    expect(handleKey('threads/Feat_X.Branch.md')).toBe('threads/feat-x-branch.md');
    expect(handleKey('2026-03-01.md')).toBe('2026-03-01.md');
  });
});

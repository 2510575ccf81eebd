import { describe, expect, it } from 'vitest';
import { wordRuns } from './word-runs';

describe('wordRuns', () => {
  it('cuts the runs the Unicode pattern cuts, for ASCII and for any other text', () => {
    const texts = [
      '',
      'Use pnpm for the monorepo.',
      'fix_bug-42: a.b/c\\d e\tf\n9x',
      '  --  ',
      'déjà vu 日本語 ½ Ⅻ ٣ ǅ 𝐀 😀',
      'mixed ascii and naïve',
    ];
    for (const text of texts) {
      expect(wordRuns(text)).toEqual(text.match(/[\p{L}\p{N}]+/gu) ?? []);
    }
  });
});

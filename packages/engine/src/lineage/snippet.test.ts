import { describe, expect, it } from 'vitest';
import { buildSnippet, snippetTerms } from './snippet';
import { buildFtsQuery, queryTerms } from './transcript-query';

describe('transcript snippets', () => {
  const log = `${'ok '.repeat(100)}Error: the migration crashed while deploying payments ${'tail '.repeat(100)}`;

  it('centres on the first word the stemmer would match, with ellipses where text was cut', () => {
    const snippet = buildSnippet(log, snippetTerms('deploy payment'));
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('deploying payments');
    expect(snippet.split(' ').length).toBeLessThanOrEqual(33);
  });

  it('shows a second word of the query that lies far past the first, in a second window', () => {
    const entry = `${'ok '.repeat(50)}zxakv ran ${'tail '.repeat(60)}jhuvx failed ${'end '.repeat(40)}`;
    const snippet = buildSnippet(entry, snippetTerms('jhuvx zxakv'));
    expect(snippet).toMatch(/^….*zxakv ran.* … .*jhuvx failed.*…$/);
    expect(snippet.split(' ').length).toBeLessThanOrEqual(34);
  });

  it('folds case and diacritics as the index does', () => {
    expect(buildSnippet('Le café est fermé', snippetTerms('CAFE'))).toBe('Le café est fermé');
  });

  it('starts at the beginning when no word matches', () => {
    expect(buildSnippet('one two three', snippetTerms('zzz'))).toBe('one two three');
  });

  it('finds in ASCII text the same word as folding every word would', () => {
    // The general path (fold every word, test its tokens), as a reference.
    const reference = (text: string, terms: readonly string[]) => {
      const words = text.split(/\s+/).filter(Boolean);
      const fold = (word: string) => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
      const hitOf = (some: readonly string[]) =>
        words.findIndex((word) =>
          (fold(word).match(/[\p{L}\p{N}]+/gu) ?? []).some((token) =>
            some.some((term) => token.startsWith(term)),
          ),
        );
      const cut = (start: number, end: number) =>
        `${start > 0 ? '…' : ''}${words.slice(start, end).join(' ')}${end < words.length ? '…' : ''}`;
      const hit = Math.max(0, hitOf(terms));
      const start = Math.max(0, hit - 8);
      const end = Math.min(words.length, start + 32);
      const past = terms.map((term) => hitOf([term])).filter((at) => at >= end);
      if (terms.length < 2 || past.length === 0) return cut(start, end);
      const one = Math.max(0, hit - 4);
      const oneEnd = Math.min(words.length, one + 16);
      const two = Math.max(oneEnd, Math.min(...past) - 4);
      return `${cut(one, oneEnd).replace(/…$/, '')} … ${cut(two, Math.min(words.length, two + 16)).replace(/^…/, '')}`;
    };
    const pieces = [
      'ok',
      'Deploy',
      'redeploy',
      'x-deploying',
      '(PAYMENTS)',
      'pay_ment',
      '42deploy',
      'a.b',
      '--',
      'v2',
    ];
    const gaps = [' ', '  ', '\t', '\n', ' \r\n '];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 300; round += 1) {
      const length = 1 + next(80);
      let text = next(4) === 0 ? ' ' : '';
      for (let i = 0; i < length; i += 1)
        text += `${pieces[next(pieces.length)]}${gaps[next(gaps.length)]}`;
      for (const query of [
        'deploy',
        'payments deploy',
        'ment',
        'v2 42',
        'b',
        'café deploy',
        'zzz',
      ]) {
        const terms = snippetTerms(query);
        expect(buildSnippet(text, terms), `${query} in ${JSON.stringify(text)}`).toBe(
          reference(text, terms),
        );
      }
    }
  });
});

describe('transcript query terms', () => {
  it('drops stopwords, unless nothing else is left', () => {
    expect(queryTerms('What did we decide about the payments deploy?')).toEqual([
      'decide',
      'about',
      'payments',
      'deploy',
    ]);
    expect(queryTerms('what is it')).toEqual(['what', 'is', 'it']);
  });

  it('quotes every term so none is read as FTS syntax', () => {
    expect(buildFtsQuery('NEAR deploy* AND "x"')).toBe('"near" OR "deploy"');
    expect(buildFtsQuery('?!')).toBeUndefined();
  });
});

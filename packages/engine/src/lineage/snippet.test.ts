import { describe, expect, it } from 'vitest';
import { buildSnippet, snippetTerms } from './snippet';
import { buildFtsQuery, queryTerms } from './transcript-repository';

describe('transcript snippets', () => {
  const log = `${'ok '.repeat(100)}Error: the migration crashed while deploying payments ${'tail '.repeat(100)}`;

  it('centres on the first word the stemmer would match, with ellipses where text was cut', () => {
    const snippet = buildSnippet(log, snippetTerms('deploy payment'));
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('deploying payments');
    expect(snippet.split(' ').length).toBeLessThanOrEqual(33);
  });

  it('folds case and diacritics as the index does', () => {
    expect(buildSnippet('Le café est fermé', snippetTerms('CAFE'))).toBe('Le café est fermé');
  });

  it('starts at the beginning when no word matches', () => {
    expect(buildSnippet('one two three', snippetTerms('zzz'))).toBe('one two three');
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

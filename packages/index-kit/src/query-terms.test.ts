import { describe, expect, it } from 'vitest';
import { camelParts, codeQueryTerms, derivedTerms, queryTerms } from './query-terms';

describe('code-aware terms', () => {
  it('splits camelCase and PascalCase words, keeping letters and digits together', () => {
    expect(camelParts('onDownloadProgress')).toEqual(['on', 'download', 'progress']);
    expect(camelParts('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
    expect(camelParts('InvoiceNumberAllocator')).toEqual(['invoice', 'number', 'allocator']);
    expect(camelParts('TS2322')).toEqual([]);
    expect(camelParts('E11000')).toEqual([]);
    expect(camelParts('v20')).toEqual([]);
    expect(camelParts('plain')).toEqual([]);
  });

  it('derives the parts of identifiers and the whole forms of compounds, nothing for prose', () => {
    expect(derivedTerms('Plain prose, with commas. And 2,000 words at 10:37!')).toBe('');
    expect(derivedTerms('see src/http/fetch-client.ts for onDownloadProgress').split(' ')).toEqual([
      'srchttpfetchclientts',
      'fetchclient',
      'on',
      'download',
      'progress',
    ]);
    expect(derivedTerms('the refresh_tokens table').split(' ')).toEqual(['refreshtokens']);
    expect(derivedTerms('Node v20.19.0').split(' ')).toEqual(['20x19x0', '20x19']);
    expect(derivedTerms('ERR_PNPM_OUTDATED_LOCKFILE').split(' ')).toEqual([
      'errpnpmoutdatedlockfile',
    ]);
    expect(derivedTerms('we de-stress')).toBe('destress');
  });

  it('reads queries the same way', () => {
    const keep = (word: string) => word !== 'the';
    expect(codeQueryTerms('the onDownloadProgress hook', keep)).toEqual({
      words: ['ondownloadprogress', 'hook'],
      parts: ['on', 'download', 'progress'],
    });
    expect(codeQueryTerms('node 20.19', keep).words).toEqual(['node', '20', '19', '20x19']);
    expect(codeQueryTerms('refresh_tokens', keep).words).toEqual([
      'refresh',
      'tokens',
      'refreshtokens',
    ]);
    expect(queryTerms('Who owns the onDownloadProgress callback?')).toEqual([
      'owns',
      'ondownloadprogress',
      'callback',
      'download',
      'progress',
    ]);
  });
});

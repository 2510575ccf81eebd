import { queryTerms } from '@cairn/index-kit';
import { describe, expect, it } from 'vitest';
import { qmdQueryText } from './qmd-search-index';

const ask = (text: string) => qmdQueryText({ text, terms: queryTerms(text) });

describe('the words qmd is asked for', () => {
  it('are the query’s own words, without the joined form of a compound', () => {
    expect(ask('blue-green deploys')).toBe('blue green deploys');
  });

  it('leave out camelCase parts qmd cannot match inside an identifier', () => {
    expect(ask('onDownloadProgress never fires')).toBe('ondownloadprogress never fires');
  });
});

/**
 * The snippet of a transcript hit, built here rather than by FTS5: the
 * index holds the full text of every entry while the table keeps long
 * entries compressed (entry-body.ts), so SQLite has no text to cut from.
 * The window starts a few words before the first word that matches a query
 * term the way the index's porter stemmer would (same stem prefix).
 */
const WINDOW_WORDS = 32;
const WORDS_BEFORE = 8;
const STEM_PREFIX = 5;

const fold = (word: string) => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Query terms as the index folds them (lowercase, no diacritics), stem prefixes. */
export function snippetTerms(query: string): string[] {
  const terms = fold(query).match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(terms.map((term) => term.slice(0, STEM_PREFIX)))];
}

export function buildSnippet(text: string, terms: readonly string[]): string {
  // Only the neighbourhood of the first match is split into words.
  const words = text.split(/\s+/).filter(Boolean);
  const matches = (word: string) => {
    const tokens = fold(word).match(/[\p{L}\p{N}]+/gu) ?? [];
    return tokens.some((token) => terms.some((term) => token.startsWith(term)));
  };
  const hit = Math.max(0, words.findIndex(matches));
  const start = Math.max(0, hit - WORDS_BEFORE);
  const end = Math.min(words.length, start + WINDOW_WORDS);
  return `${start > 0 ? '…' : ''}${words.slice(start, end).join(' ')}${end < words.length ? '…' : ''}`;
}

import { wordRuns } from '@cairn/core';

/**
 * The snippet of a transcript hit, built here rather than by FTS5: the
 * index holds the full text of every entry while the table keeps long
 * entries compressed (transcript-repository.ts), so SQLite has no text to cut from.
 * The window starts a few words before the first word that matches a query
 * term the way the index's porter stemmer would (same stem prefix).
 */
const WINDOW_WORDS = 32;
const WORDS_BEFORE = 8;
const STEM_PREFIX = 5;
/** Two windows of half the size when the query's words are far apart in one entry. */
const HALF_WINDOW = 16;
const HALF_BEFORE = 4;

const NON_ASCII = /[^\0-\x7f]/;

/** Lowercase without diacritics; ASCII has none (and needs no `\p{M}` compiled). */
const fold = (word: string) =>
  NON_ASCII.test(word)
    ? word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
    : word.toLowerCase();

/** Query terms as the index folds them (lowercase, no diacritics), stem prefixes. */
export function snippetTerms(query: string): string[] {
  const terms = wordRuns(fold(query));
  return [...new Set(terms.map((term) => term.slice(0, STEM_PREFIX)))];
}

export function buildSnippet(text: string, terms: readonly string[]): string {
  const words = text.split(/\s+/).filter(Boolean);
  const ascii = ASCII_ONLY.test(text);
  // Only the neighbourhood of a match is split into words.
  const find = (some: readonly string[]) =>
    ascii ? firstHitAscii(text, some) : firstHit(words, some);
  const first = Math.max(0, find(terms));
  const start = Math.max(0, first - WORDS_BEFORE);
  const end = Math.min(words.length, start + WINDOW_WORDS);
  const later = terms.length > 1 ? firstHitPast(terms, find, end) : -1;
  if (later < 0) return cut(words, start, end);
  // A word of the query the window misses, further on: half a window for each, so the
  // excerpt shows every word the entry was found by (two of them at most).
  const one = Math.max(0, first - HALF_BEFORE);
  const oneEnd = Math.min(words.length, one + HALF_WINDOW);
  const two = Math.max(oneEnd, later - HALF_BEFORE);
  return `${cut(words, one, oneEnd).replace(/…$/, '')} … ${cut(words, two, Math.min(words.length, two + HALF_WINDOW)).replace(/^…/, '')}`;
}

/** `words[start, end)` with an ellipsis on each side where text was left out. */
function cut(words: readonly string[], start: number, end: number): string {
  return `${start > 0 ? '…' : ''}${words.slice(start, end).join(' ')}${end < words.length ? '…' : ''}`;
}

/** The first word at or past `end` that holds a query term no earlier word holds, or -1. */
function firstHitPast(
  terms: readonly string[],
  find: (some: readonly string[]) => number,
  end: number,
): number {
  let best = -1;
  for (const term of terms) {
    const at = find([term]);
    if (at >= end && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** The index of the first word with a token (a run of letters and digits) that starts with a term, or -1. */
function firstHit(words: readonly string[], terms: readonly string[]): number {
  const matches = (word: string) => {
    const tokens = wordRuns(fold(word));
    return tokens.some((token) => terms.some((term) => token.startsWith(term)));
  };
  return words.findIndex(matches);
}

/** Printable ASCII and its whitespace (text with other control characters takes the general path). */
const ASCII_ONLY = /^[\t\n\v\f\r\x20-\x7e]*$/;
const ASCII_TERM = /^[a-z0-9]+$/;

/**
 * `firstHit` for ASCII text (most tool output), without folding each word:
 * there folding is lowercasing and tokens are runs of `[a-z0-9]`, so the
 * first token that starts with a term is found by one search of the
 * lowercased text, and its word is the number of words that began up to it.
 */
function firstHitAscii(text: string, terms: readonly string[]): number {
  const ascii = terms.filter((term) => ASCII_TERM.test(term));
  if (ascii.length === 0) return -1;
  const at = text.toLowerCase().search(new RegExp(`(?<![a-z0-9])(?:${ascii.join('|')})`));
  if (at < 0) return -1;
  return (text.slice(0, at + 1).match(/\S+/g)?.length ?? 1) - 1;
}

import { redactSecrets, wordRuns } from '@cairn/core';

/*
 * Search terms: how the text Cairn indexes and the queries it answers
 * become terms, and the plain keyword scan that scores markdown by them.
 *
 * Code-aware terms: identifiers, paths, versions and error codes become
 * search terms the same way in the text Cairn indexes and in the queries it
 * answers. A full-text tokenizer cuts `onDownloadProgress` into one word
 * and `refresh_tokens` into two: `derivedTerms` adds the other forms (the
 * camelCase parts, the joined whole), so "download progress" finds the
 * first and "refreshtokens" the second, while the exact form, found in
 * both the text and the derived forms, ranks higher.
 */

/** Only ASCII: the Unicode classes cost a process about a millisecond to compile. */
const NON_ASCII = /[^\0-\x7f]/;
/** Letters or digits joined by identifier punctuation, no space: `src/core/Ky.ts`, `v20.19`, `X-Tern-Signature`. */
const COMPOUND_ASCII = /[A-Za-z0-9]+(?:[-_./:@#][A-Za-z0-9]+)+/g;
const COMPOUND_UNICODE = /[\p{L}\p{N}]+(?:[-_./:@#][\p{L}\p{N}]+)+/gu;
/** A run with a lower-to-upper or acronym-to-word step: `onDownloadProgress`, `XMLHttpRequest`. */
const CAMEL = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
const CAMEL_SPLIT = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
/** `20.19`, `v20.19.0`: numbers joined by dots, an optional `v` before. */
const VERSION = /^v?\d+(?:\.\d+)+$/i;
/** A clock time (`10:37`) is not a name. */
const CLOCK = /^\d{1,2}:\d{2}(?::\d{2})?$/;
/** Separators that join the words of one name (`refresh_tokens`, `rate-limit`), unlike path separators. */
const WORD_JOINERS = /[-_]/;

/** The parts of one camelCase or PascalCase word, lowercased; empty when it has none. */
export function camelParts(word: string): string[] {
  if (!CAMEL.test(word)) return [];
  return word
    .split(CAMEL_SPLIT)
    .map((part) => part.toLowerCase())
    .filter((part) => part !== '');
}

/**
 * A version's whole forms: its numbers joined by `x` (a token the
 * full-text tokenizer keeps whole and no prose contains), and the same for
 * its major.minor prefix, so `20.19` finds `v20.19.0`.
 */
function versionForms(compound: string): string[] {
  const numbers = compound.replace(/^v/i, '').split('.');
  const forms = [numbers.join('x')];
  if (numbers.length > 2) forms.push(numbers.slice(0, 2).join('x'));
  return forms;
}

/**
 * The whole forms of one compound: letters and digits joined with nothing
 * (`refresh_tokens` -> `refreshtokens`, `src/core/Ky.ts` -> `srccorekyts`),
 * each `-`/`_`-joined name inside a path on its own (`fetch-client`), and a
 * version's forms.
 */
function compoundForms(compound: string): string[] {
  if (VERSION.test(compound)) return versionForms(compound);
  const forms = [wordRuns(compound).join('').toLowerCase()];
  for (const piece of compound.split(/[./:@#]/)) {
    if (!WORD_JOINERS.test(piece)) continue;
    const joined = wordRuns(piece).join('').toLowerCase();
    if (joined !== '' && !forms.includes(joined)) forms.push(joined);
  }
  return forms;
}

function compoundsOf(text: string): string[] {
  const found = text.match(NON_ASCII.test(text) ? COMPOUND_UNICODE : COMPOUND_ASCII) ?? [];
  return found.filter((compound) => !CLOCK.test(compound));
}

/**
 * The extra terms of a text that its words alone do not give: the parts of
 * each camelCase word and the whole forms of each compound, space
 * separated, one entry per occurrence (so they count as often as they
 * appear). Empty for prose.
 */
export function derivedTerms(text: string): string {
  const out: string[] = [];
  for (const compound of compoundsOf(text)) out.push(...compoundForms(compound));
  for (const word of wordRuns(text)) out.push(...camelParts(word));
  return out.join(' ');
}

/** How a query's terms were found: the words it says, and the parts of its identifiers. */
export interface CodeQueryTerms {
  /** Lowercase words, and the whole forms of compounds (`errrequireesm`), in order, once each. */
  words: string[];
  /** camelCase parts not already among the words (`onDownloadProgress` -> download, progress). */
  parts: string[];
}

/**
 * The terms of a query, read the way `derivedTerms` reads indexed text:
 * `keep` decides which words count (stop words are left out by the caller).
 */
export function codeQueryTerms(query: string, keep: (word: string) => boolean): CodeQueryTerms {
  const words = new Set<string>();
  for (const word of wordRuns(query)) {
    const lower = word.toLowerCase();
    if (keep(lower)) words.add(lower);
  }
  for (const compound of compoundsOf(query)) {
    for (const form of compoundForms(compound)) if (keep(form)) words.add(form);
  }
  const parts = new Set<string>();
  for (const word of wordRuns(query)) {
    for (const part of camelParts(word)) if (keep(part) && !words.has(part)) parts.add(part);
  }
  return { words: [...words], parts: [...parts] };
}

/**
 * A plain keyword scan over markdown: split into paragraph blocks, score
 * each block by the query terms it contains, return bounded snippets.
 * Good enough for small workspaces; the SQLite index replaces it for search.
 */

export interface ScanHit {
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  /** The whole block the snippet was cut from. */
  text: string;
}

/** Common English function words: they match almost every chunk and rank nothing. */
const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being
  below between both but by can could did do does doing down during each few for from further
  had has have having he her here hers herself him himself his how i if in into is it its itself
  just me more most my myself no nor not now of off on once only or other our ours ourselves out
  over own same she should so some such than that the their theirs them themselves then there
  these they this those through to too under until up us very was we were what when where which
  while who whom why will with would you your yours yourself yourselves`.split(/\s+/),
);

/** Whether a lowercase word is too common to search for (`the`, `who`, `was`). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * Lowercase alphanumeric terms, stop words dropped, deduplicated: the
 * query's words and the whole forms of its compounds (`refresh_tokens` also
 * gives `refreshtokens`), then the parts of its camelCase words
 * (`onDownloadProgress` also gives `download`, `progress`). See `codeQueryTerms`.
 */
export function queryTerms(query: string): string[] {
  const { words, parts } = codeQueryTerms(query, (word) => !STOP_WORDS.has(word));
  return [...words, ...parts];
}

/** Markers are metadata: they never appear in snippets. */
const MARKER_LINE = /^\s*<!--\s*cairn:[^>]*-->\s*$/;
const MAX_BLOCK_LINES = 24;

interface Block {
  startLine: number;
  endLine: number;
  text: string;
}

function splitBlocks(content: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let start = 0;
  const flush = (end: number) => {
    if (lines.length > 0) blocks.push({ startLine: start, endLine: end, text: lines.join('\n') });
    lines = [];
  };
  content.split('\n').forEach((line, index) => {
    const lineNo = index + 1;
    const boundary = line.trim() === '' || line.trim() === '----' || MARKER_LINE.test(line);
    if (boundary || lines.length >= MAX_BLOCK_LINES) flush(lineNo - 1);
    if (boundary) return;
    if (lines.length === 0) start = lineNo;
    lines.push(line);
  });
  flush(content.split('\n').length);
  return blocks;
}

function countOccurrences(haystack: string, term: string): number {
  let count = 0;
  let at = haystack.indexOf(term);
  while (at !== -1) {
    count += 1;
    at = haystack.indexOf(term, at + term.length);
  }
  return count;
}

/**
 * Cuts `text` to at most `maxChars`, centred on the first matching term. A
 * text that must be cut is redacted first (redactSecrets): a cut through a
 * secret (a key block without its BEGIN line, a token without its prefix)
 * would leave a part no later pass recognises. A whole text comes back as
 * written; whoever shows it redacts it.
 */
export function boundSnippet(text: string, terms: string[], maxChars: number): string {
  const whole = text.replace(/\s+/g, ' ').trim();
  if (whole.length <= maxChars) return whole;
  const flat = redactSecrets(whole).text;
  if (flat.length <= maxChars) return flat;
  const lower = flat.toLowerCase();
  const first = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0), flat.length);
  const start = Math.max(0, Math.min(first - Math.floor(maxChars / 4), flat.length - maxChars));
  const body = flat.slice(start, start + maxChars - 2);
  return `${start > 0 ? '…' : ''}${body}${start + maxChars - 2 < flat.length ? '…' : ''}`;
}

/** Scores every block of `content` against `terms`; blocks with no match are dropped. */
export function scanMarkdown(content: string, terms: string[], snippetChars: number): ScanHit[] {
  if (terms.length === 0) return [];
  const hits: ScanHit[] = [];
  for (const block of splitBlocks(content)) {
    const lower = block.text.toLowerCase();
    let matched = 0;
    let weight = 0;
    for (const term of terms) {
      const count = countOccurrences(lower, term);
      if (count === 0) continue;
      matched += 1;
      weight += 1 + Math.log(count);
    }
    if (matched === 0) continue;
    // Coverage of the query dominates; repeated terms and short blocks break ties.
    const score = (matched / terms.length) * 10 + weight / Math.sqrt(1 + lower.length / 200);
    hits.push({
      startLine: block.startLine,
      endLine: block.endLine,
      score: Math.round(score * 1000) / 1000,
      snippet: boundSnippet(block.text, terms, snippetChars),
      text: block.text,
    });
  }
  return hits;
}

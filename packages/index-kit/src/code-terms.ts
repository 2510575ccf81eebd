import { wordRuns } from '@cairn/core';

/*
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

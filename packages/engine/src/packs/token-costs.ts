/**
 * What each piece of the token estimate costs (token-estimate.ts): one
 * token, plus a little for what BPE splits further. Pieces are given as
 * `text[start, end)`, so counting cuts no strings. Costs are whole
 * numbers of `TOKEN` (1/80 of a token, which every fraction below is a
 * multiple of), so a text's total does not depend on the order it is
 * added up in.
 */
import { classOfCode, SPACE } from './token-classes';

/** One token, in cost units. */
export const TOKEN = 80;

const COST = {
  /** Each letter of a word beyond the sixth (0.1): long and rare words split. */
  longLetter: 8,
  /** A word glued to a sign (`.map`, `` `memory``; 0.4): often split in two. */
  signPrefix: 32,
  /** Each character of a punctuation run beyond the second (0.7). */
  punctuation: 56,
  /** Each character of a hex id (commit, hash, UUID part; 0.85): barely merged at all. */
  hexChar: 68,
  /** Each non-ASCII character of a word beyond the first (CJK, accents; 0.7). */
  nonAscii: 56,
  /** Each sign of a punctuation run, when it changes little (1/16). */
  sign: 5,
} as const;

const isAsciiLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isDigit = (code: number) => code >= 48 && code <= 57;

/** `text[start, end)`, a run of hex digits. */
export function hexCost(text: string, start: number, end: number): number {
  const length = end - start;
  let digits = 0;
  for (let i = start; i < end; i += 1) if (isDigit(text.charCodeAt(i))) digits += 1;
  if (digits === length) return TOKEN * Math.ceil(length / 3);
  // Letters only (`deadbeef`, `faded`): costs like a long word.
  if (digits === 0) return TOKEN + COST.longLetter * Math.max(0, length - 6);
  return length * COST.hexChar;
}

export function wordCost(text: string, start: number, end: number): number {
  let cost = TOKEN;
  let letters = end - start;
  const first = text.charCodeAt(start);
  if (!isAsciiLetter(first) && first < 128) {
    letters -= 1;
    if (first !== 32) cost += COST.signPrefix;
  }
  let nonAscii = 0;
  for (let i = start; i < end; i += 1) if (text.charCodeAt(i) > 127) nonAscii += 1;
  if (nonAscii > 1) cost += COST.nonAscii * (nonAscii - 1);
  return cost + COST.longLetter * Math.max(0, letters - 6);
}

/** What `String.prototype.trim` removes: white space and line terminators. */
const isTrimmed = (code: number) => (classOfCode(code) & SPACE) !== 0;

/** A run of one repeated sign (`-----`, `+++`) merges well; mixed signs do not. */
export function punctuationCost(text: string, start: number, end: number): number {
  let from = start;
  let to = end;
  while (from < to && isTrimmed(text.charCodeAt(from))) from += 1;
  while (to > from && isTrimmed(text.charCodeAt(to - 1))) to -= 1;
  let changes = 0;
  for (let i = from + 1; i < to; i += 1) {
    if (text.charCodeAt(i) !== text.charCodeAt(i - 1)) changes += 1;
  }
  const signs = to - from;
  const mixed = TOKEN + COST.punctuation * Math.max(0, signs - 2);
  return Math.min(mixed, TOKEN * (1 + changes) + COST.sign * signs);
}

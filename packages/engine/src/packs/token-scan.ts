/**
 * o200k_base's pre-tokenizer pattern (see token-estimate.ts) written out
 * as a scanner over character classes (token-classes.ts), for text with
 * non-ASCII characters: the pattern's Unicode property classes cost V8
 * tens of milliseconds to compile, more than a hook may spend.
 */

import {
  BREAK,
  classAt,
  HEX,
  isPrefix,
  isPunctuation,
  LOWER,
  NUMBER,
  SPACE,
  UPPER,
} from './token-classes';
import { hexCost, punctuationCost, TOKEN, wordCost } from './token-costs';

/** UTF-16 units of the code point at `i` (2 for a surrogate pair). */
function widthAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0xd800 || code > 0xdbff || i + 1 >= text.length) return 1;
  const next = text.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** End of the run from `i` of code points with any of `flags`. */
function runEnd(text: string, i: number, flags: number): number {
  let at = i;
  while (at < text.length && (classAt(text, at) & flags) !== 0) at += widthAt(text, at);
  return at;
}

const CONTRACTIONS = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"];

function afterContraction(text: string, end: number): number {
  if (text.charCodeAt(end) !== 39) return end;
  for (const suffix of CONTRACTIONS) if (text.startsWith(suffix, end)) return end + suffix.length;
  return end;
}

/** `[upper]*[lower]+` from `p`, as the pattern backtracks it; -1 when it fails. */
function lowerWordEnd(text: string, p: number): number {
  let at = p;
  let lastLower = -1;
  while (at < text.length) {
    const flags = classAt(text, at);
    if ((flags & UPPER) === 0) break;
    if ((flags & LOWER) !== 0) lastLower = at;
    at += widthAt(text, at);
  }
  if (at < text.length && (classAt(text, at) & LOWER) !== 0) {
    return afterContraction(text, runEnd(text, at, LOWER));
  }
  // The upper run gives back its last code point that is also lower (Lm, Lo, marks).
  if (lastLower < 0) return -1;
  return afterContraction(text, lastLower + widthAt(text, lastLower));
}

/** `[upper]+[lower]*` from `p`; -1 when it fails. */
function upperWordEnd(text: string, p: number): number {
  if (p >= text.length || (classAt(text, p) & UPPER) === 0) return -1;
  return afterContraction(text, runEnd(text, runEnd(text, p, UPPER), LOWER));
}

/** A word with its optional leading sign or space (both alternatives, prefix first); -1 when none. */
function wordEnd(text: string, i: number): number {
  const prefixed = isPrefix(classAt(text, i)) ? i + widthAt(text, i) : -1;
  let end = prefixed >= 0 ? lowerWordEnd(text, prefixed) : -1;
  if (end < 0) end = lowerWordEnd(text, i);
  if (end < 0 && prefixed >= 0) end = upperWordEnd(text, prefixed);
  if (end < 0) end = upperWordEnd(text, i);
  return end;
}

/** ` ?[punctuation]+[\r\n/]*`; -1 when it fails. */
function punctuationEnd(text: string, i: number): number {
  let at = i;
  if (text.charCodeAt(at) === 32 && at + 1 < text.length && isPunctuation(classAt(text, at + 1))) {
    at += 1;
  } else if (!isPunctuation(classAt(text, at))) {
    return -1;
  }
  while (at < text.length && isPunctuation(classAt(text, at))) at += widthAt(text, at);
  for (let code = text.charCodeAt(at); code === 10 || code === 13 || code === 47; ) {
    at += 1;
    code = text.charCodeAt(at);
  }
  return at;
}

/** `\s*[\r\n]+|\s+(?!\S)|\s+` at a white space character. */
function spaceEnd(text: string, i: number): number {
  const end = runEnd(text, i, SPACE);
  for (let at = end - 1; at >= i; at -= 1) {
    if ((classAt(text, at) & BREAK) !== 0) return at + 1;
  }
  if (end === text.length || end - i === 1) return end;
  return end - 1;
}

/** The piece that starts at `i`, as the pattern cuts it: where it ends and what it costs. */
function pieceAt(text: string, i: number): { end: number; cost: number } {
  const flags = classAt(text, i);
  const hexEnd = (flags & HEX) !== 0 ? runEnd(text, i, HEX) : i;
  if (hexEnd - i >= 8) return { end: hexEnd, cost: hexCost(text, i, hexEnd) };
  const word = wordEnd(text, i);
  if (word >= 0) return { end: word, cost: wordCost(text, i, word) };
  if ((flags & NUMBER) !== 0) {
    let to = i;
    for (let n = 0; n < 3 && to < text.length && (classAt(text, to) & NUMBER) !== 0; n += 1) {
      to += widthAt(text, to);
    }
    return { end: to, cost: TOKEN };
  }
  const punctuation = punctuationEnd(text, i);
  if (punctuation >= 0) return { end: punctuation, cost: punctuationCost(text, i, punctuation) };
  // White space: every other code point is a word, digits or punctuation.
  return { end: Math.max(spaceEnd(text, i), i + widthAt(text, i)), cost: TOKEN };
}

/**
 * The cost of the pieces that tile `text[start, end)` (a span that starts
 * and ends on piece boundaries), in cost units (token-costs.ts). The scanner is exact for any
 * text but runs as interpreted code in a short process; the estimate gives
 * it only the lines that hold non-ASCII characters.
 */
export function scanPieces(text: string, start: number, end: number): number {
  let total = 0;
  let i = start;
  while (i < end) {
    const piece = pieceAt(text, i);
    total += piece.cost;
    i = piece.end;
  }
  return total;
}

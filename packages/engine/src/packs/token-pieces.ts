/**
 * o200k_base's pre-tokenizer pattern (see token-estimate.ts) written out
 * as a scanner over character classes, for text with non-ASCII characters
 * (the pattern's Unicode property classes cost V8 tens of milliseconds to
 * compile, more than a hook may spend), and what each piece costs.
 */

/*
 * Character classes, as bit flags per code point: what the pattern asks
 * of a character (`\p{Lu}`, `\p{Ll}`, `\p{N}`, `\s`, ...). Each code point
 * is classified once, by the same Unicode property escapes the pattern
 * uses, and remembered.
 */

/** `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: may stand in a word's upper run. */
const UPPER = 1;
/** `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`: may stand in a word's lower run. */
const LOWER = 2;
/** `\p{L}`. */
const LETTER = 4;
/** `\p{N}`. */
const NUMBER = 8;
/** `\s` (JavaScript's: white space and line terminators, what `trim()` removes). */
const SPACE = 16;
/** `[\r\n]`. */
const BREAK = 32;
/** `[0-9a-fA-F]`. */
const HEX = 64;
/** Set on every remembered entry, so that 0 means "not classified yet". */
const KNOWN = 128;

const PROPERTIES: readonly [RegExp, number][] = [
  [/[\p{Lu}\p{Lt}]/u, UPPER | LETTER],
  [/\p{Ll}/u, LOWER | LETTER],
  [/[\p{Lm}\p{Lo}]/u, UPPER | LOWER | LETTER],
  [/\p{M}/u, UPPER | LOWER],
  [/\p{N}/u, NUMBER],
  [/\s/u, SPACE],
];

/**
 * Latin-1 and General Punctuation, the non-ASCII most text (and Cairn's own
 * pack frame: `·`, `…`, `—`, `§`) holds, classified by their Unicode
 * categories without compiling a `\p{…}` pattern (that costs a hook a few
 * milliseconds). token-pieces.test.ts checks every code point of both
 * blocks against `classifyByProperties`.
 */
function commonClass(code: number): number | undefined {
  if (code >= 0x2000 && code <= 0x206f) {
    // U+2000-200A, 2028, 2029, 202F, 205F are white space; the rest are punctuation and format characters.
    const space =
      code <= 0x200a || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f;
    return KNOWN | (space ? SPACE : 0);
  }
  if (code < 0x80 || code > 0xff) return undefined;
  if (code === 0xa0) return KNOWN | SPACE;
  if (code === 0xaa || code === 0xba) return KNOWN | UPPER | LOWER | LETTER; // ª º: Lo
  if (code === 0xb5) return KNOWN | LOWER | LETTER; // µ: Ll
  if (code === 0xb2 || code === 0xb3 || code === 0xb9 || (code >= 0xbc && code <= 0xbe)) {
    return KNOWN | NUMBER; // ² ³ ¹ ¼ ½ ¾: No
  }
  if (code < 0xc0 || code === 0xd7 || code === 0xf7) return KNOWN; // controls, signs, × ÷
  return KNOWN | LETTER | (code <= 0xde ? UPPER : LOWER);
}

/** The classes of a code point by the pattern's own Unicode property escapes (exported for the tests). */
export function classifyByProperties(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  let flags = KNOWN;
  for (const [property, bits] of PROPERTIES) if (property.test(char)) flags |= bits;
  if (codePoint === 10 || codePoint === 13) flags |= BREAK;
  if (/^[0-9a-fA-F]$/.test(char)) flags |= HEX;
  return flags;
}

const classify = (codePoint: number) => commonClass(codePoint) ?? classifyByProperties(codePoint);

/** ASCII, classified without a regular expression (what `classify` gives for each). */
const ASCII = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) {
  let flags = KNOWN;
  if (code >= 65 && code <= 90) flags |= UPPER | LETTER;
  if (code >= 97 && code <= 122) flags |= LOWER | LETTER;
  if (code >= 48 && code <= 57) flags |= NUMBER | HEX;
  if ((code >= 65 && code <= 70) || (code >= 97 && code <= 102)) flags |= HEX;
  if ((code >= 9 && code <= 13) || code === 32) flags |= SPACE;
  if (code === 10 || code === 13) flags |= BREAK;
  ASCII[code] = flags;
}

/** Classes of the rest of the Basic Multilingual Plane, filled as characters are met. */
let basic: Uint8Array | undefined;
const astral = new Map<number, number>();

/** The classes of one UTF-16 code unit taken as a code point (a lone surrogate has none). */
export function classOfCode(code: number): number {
  if (code < 128) return ASCII[code] as number;
  basic ??= new Uint8Array(0x10000);
  let flags = basic[code] as number;
  if (flags === 0) {
    flags = classify(code);
    basic[code] = flags;
  }
  return flags;
}

/** The classes of the code point that starts at `text[i]`. */
function classAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 128) return ASCII[code] as number;
  if (code < 0xd800 || code > 0xdbff) return classOfCode(code);
  const next = text.charCodeAt(i + 1);
  if (!(next >= 0xdc00 && next <= 0xdfff)) return classOfCode(code);
  const codePoint = (code - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
  let flags = astral.get(codePoint);
  if (flags === undefined) {
    flags = classify(codePoint);
    astral.set(codePoint, flags);
  }
  return flags;
}

/** `[^\r\n\p{L}\p{N}]`: may lead a word (a space, a sign, a mark). */
const isPrefix = (flags: number) => (flags & (BREAK | LETTER | NUMBER)) === 0;

/** `[^\s\p{L}\p{N}]`: punctuation, symbols, marks, lone surrogates. */
const isPunctuation = (flags: number) => (flags & (SPACE | LETTER | NUMBER)) === 0;

/*
 * What each piece costs (the scanner's and the estimate's ASCII pattern's):
 * one token, plus a little for what BPE splits further. Pieces are given as
 * `text[start, end)`, so counting cuts no strings. Costs are whole
 * numbers of `TOKEN` (1/80 of a token, which every fraction below is a
 * multiple of), so a text's total does not depend on the order it is
 * added up in.
 */

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
 * and ends on piece boundaries), in cost units (`TOKEN`). The scanner is exact for any
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

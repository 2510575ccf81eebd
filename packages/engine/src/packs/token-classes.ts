/**
 * Character classes of the token estimate (token-estimate.ts), as bit
 * flags per code point: what o200k_base's pre-tokenizer pattern asks of
 * a character (`\p{Lu}`, `\p{Ll}`, `\p{N}`, `\s`, ...). Each code point is
 * classified once, by the same Unicode property escapes the pattern uses,
 * and remembered.
 */

/** `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: may stand in a word's upper run. */
export const UPPER = 1;
/** `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`: may stand in a word's lower run. */
export const LOWER = 2;
/** `\p{L}`. */
export const LETTER = 4;
/** `\p{N}`. */
export const NUMBER = 8;
/** `\s` (JavaScript's: white space and line terminators, what `trim()` removes). */
export const SPACE = 16;
/** `[\r\n]`. */
export const BREAK = 32;
/** `[0-9a-fA-F]`. */
export const HEX = 64;
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
 * milliseconds). token-classes.test.ts checks every code point of both
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
export function classAt(text: string, i: number): number {
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
export const isPrefix = (flags: number) => (flags & (BREAK | LETTER | NUMBER)) === 0;

/** `[^\s\p{L}\p{N}]`: punctuation, symbols, marks, lone surrogates. */
export const isPunctuation = (flags: number) => (flags & (SPACE | LETTER | NUMBER)) === 0;

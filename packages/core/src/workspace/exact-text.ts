/**
 * Lossless text for files Cairn rewrites in part (MEMORY.md around its
 * managed region, a daily file around a replaced unit). Bytes that are not
 * valid UTF-8 belong to the user and must survive byte for byte, but
 * `readFile(path, 'utf8')` turns them into U+FFFD. Here each invalid byte
 * `b` (always 0x80–0xFF) is decoded as the lone surrogate U+DC00+b (the
 * "surrogateescape" of Python), which valid UTF-8 can never produce, and
 * encoded back to `b`. Everything else round-trips as ordinary UTF-8,
 * including a BOM and CRLF line ends.
 */

import { isUtf8 } from 'node:buffer';

const ESCAPE_BASE = 0xdc00;
/** A lone low surrogate in U+DC80–U+DCFF: an escaped byte. */
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
const ESCAPED_BYTES = new RegExp(ESCAPED_BYTE.source, 'g');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number) => {
    const b = bytes[i + k];
    return b !== undefined && b >= 0x80 && b <= 0xbf;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const b1 = bytes[i + 1];
    if (b1 === undefined) return 0;
    // No overlong forms (E0 80..9F) and no surrogates (ED A0..BF).
    if ((b0 === 0xe0 && b1 < 0xa0) || (b0 === 0xed && b1 > 0x9f)) return 0;
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const b1 = bytes[i + 1];
    if (b1 === undefined) return 0;
    // No overlong forms (F0 80..8F) and nothing above U+10FFFF (F4 90..).
    if ((b0 === 0xf0 && b1 < 0x90) || (b0 === 0xf4 && b1 > 0x8f)) return 0;
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * The byte offset of the first byte that is not valid UTF-8, or undefined
 * when the whole buffer is valid. `cairn doctor` uses it to name the spot.
 */
export function findInvalidUtf8(bytes: Uint8Array): number | undefined {
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return undefined;
}

/** Decodes bytes to a string that `encodeExactText` turns back into the same bytes. */
export function decodeExactText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(bytes)) return buffer.toString('utf8');
  let bad = findInvalidUtf8(bytes);
  let out = '';
  let from = 0;
  while (bad !== undefined) {
    out += buffer.toString('utf8', from, bad);
    out += String.fromCharCode(ESCAPE_BASE + bytes[bad]!);
    from = bad + 1;
    const next = findInvalidUtf8(bytes.subarray(from));
    bad = next === undefined ? undefined : from + next;
  }
  return out + buffer.toString('utf8', from);
}

/** Encodes text from `decodeExactText` (possibly edited) back to its exact bytes. */
export function encodeExactText(text: string): Buffer {
  if (!ESCAPED_BYTE.test(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (const match of text.matchAll(ESCAPED_BYTES)) {
    parts.push(Buffer.from(text.slice(from, match.index), 'utf8'));
    parts.push(Buffer.from([match[0].charCodeAt(0) - ESCAPE_BASE]));
    from = match.index + 1;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * Text Cairn writes itself (a unit body, a rendered head) with every lone
 * surrogate replaced by U+FFFD, as plain UTF-8 writing would do; so it can
 * never be mistaken for an escaped user byte.
 */
export function wellFormedText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** True when `text` (from `decodeExactText`) holds bytes that were not valid UTF-8. */
export function hasEscapedBytes(text: string): boolean {
  return ESCAPED_BYTE.test(text);
}

import { describe, expect, it } from 'vitest';
import {
  decodeExactText,
  encodeExactText,
  findInvalidUtf8,
  hasEscapedBytes,
  wellFormedText,
} from './exact-text';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))),
  );

describe('exact text', () => {
  const samples: Array<[string, Buffer]> = [
    ['plain UTF-8', bytes('# Notes\nCafé ☕ and 🎉\n')],
    ['a UTF-16 BOM pair', bytes([0xff, 0xfe], 'after\n')],
    ['Latin-1', bytes('caf', [0xe9], '\n')],
    ['a lone continuation byte', bytes('a', [0x80], 'b')],
    ['a truncated sequence at the end', bytes('x', [0xe2, 0x98])],
    ['an overlong slash', bytes([0xc0, 0xaf])],
    ['an encoded surrogate', bytes([0xed, 0xa0, 0x80])],
    ['above U+10FFFF', bytes([0xf4, 0x90, 0x80, 0x80])],
    ['a UTF-8 BOM and CRLF', bytes([0xef, 0xbb, 0xbf], 'one\r\ntwo\r\n')],
    ['every byte value', Buffer.from(Array.from({ length: 256 }, (_, n) => n))],
  ];

  it.each(samples)('round-trips %s byte for byte', (_name, input) => {
    const text = decodeExactText(input);
    expect(encodeExactText(text).equals(input)).toBe(true);
    expect(hasEscapedBytes(text)).toBe(findInvalidUtf8(input) !== undefined);
  });

  it('finds the first invalid byte, and nothing in valid text', () => {
    expect(findInvalidUtf8(bytes('ok ☕ 🎉'))).toBeUndefined();
    expect(findInvalidUtf8(bytes('caf', [0xe9], '!'))).toBe(3);
    expect(findInvalidUtf8(bytes('ab', [0xf0, 0x9f, 0x8e]))).toBe(2);
    expect(findInvalidUtf8(new Uint8Array())).toBeUndefined();
  });

  it('agrees with a fatal TextDecoder on every two-byte sequence', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true });
    for (let a = 0x80; a < 0x100; a += 1) {
      for (let b = 0; b < 0x100; b += 7) {
        const input = Uint8Array.from([a, b]);
        let valid = true;
        try {
          fatal.decode(input);
        } catch {
          valid = false;
        }
        expect(findInvalidUtf8(input) === undefined).toBe(valid);
      }
    }
  });

  it('keeps escaped bytes when text around them is edited', () => {
    const text = decodeExactText(bytes('caf', [0xe9], '\nold line\n'));
    const edited = text.replace('old line', 'new line ☕');
    expect(encodeExactText(edited).equals(bytes('caf', [0xe9], '\nnew line ☕\n'))).toBe(true);
  });

  it('never writes a lone surrogate from Cairn as a raw byte', () => {
    const text = wellFormedText('x\uDCE9y\uD83Dz 🎉');
    expect(text).toBe('x\uFFFDy\uFFFDz 🎉');
    expect(findInvalidUtf8(encodeExactText(text))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { classifyByProperties, classOfCode } from './token-pieces';

describe('token classes', () => {
  it('classifies ASCII, Latin-1 and General Punctuation as the Unicode property escapes do', () => {
    const blocks = [
      [0x00, 0x7f],
      [0x80, 0xff],
      [0x2000, 0x206f],
    ] as const;
    for (const [from, to] of blocks) {
      for (let code = from; code <= to; code += 1) {
        const expected = { code: code.toString(16), flags: classifyByProperties(code) };
        expect({ code: code.toString(16), flags: classOfCode(code) }).toEqual(expected);
      }
    }
  });
});

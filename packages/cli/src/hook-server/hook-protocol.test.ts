import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sameBytes, sha256 } from './hook-protocol';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('hmacSha256', () => {
  it('agrees with node:crypto on the FIPS vectors and on random keys and messages of every block boundary', () => {
    expect(hex(sha256(Buffer.from('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(sha256(new Uint8Array(0)))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    for (const size of [0, 1, 31, 32, 55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
      const message = randomBytes(size);
      const key = randomBytes(size % 3 === 0 ? 32 : 100);
      expect(hex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
      expect(hex(hmacSha256(key, message))).toBe(
        createHmac('sha256', key).update(message).digest('hex'),
      );
    }
  });

  it('compares bytes whole', () => {
    expect(sameBytes(Buffer.from('abc'), Buffer.from('abc'))).toBe(true);
    expect(sameBytes(Buffer.from('abc'), Buffer.from('abd'))).toBe(false);
    expect(sameBytes(Buffer.from('abc'), Buffer.from('abcd'))).toBe(false);
    expect(sameBytes(new Uint8Array(0), Buffer.from('a'))).toBe(false);
  });
});

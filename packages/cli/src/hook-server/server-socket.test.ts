import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureServerKey, KEY_FILE, readServerKey } from './server-socket';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-key-'));
  chmodSync(dir, 0o700);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the hook server key', () => {
  it('is made once, 0600, and read back the same', () => {
    const key = ensureServerKey(dir, randomBytes);
    expect(key).toHaveLength(32);
    expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, KEY_FILE), 'latin1')).toMatch(
      /^cairn-hook-server-key v1 [0-9a-f]{64}\n$/,
    );
    expect(readServerKey(dir)?.equals(key!)).toBe(true);
    expect(ensureServerKey(dir, randomBytes)?.equals(key!)).toBe(true);
    expect(readdirSync(dir)).toEqual([KEY_FILE]);
  });

  it('is not read from a file open to others, a link, or any other content, and such a file is replaced', () => {
    const key = ensureServerKey(dir, randomBytes)!;
    const path = join(dir, KEY_FILE);
    chmodSync(path, 0o644);
    expect(readServerKey(dir)).toBeUndefined();
    chmodSync(path, 0o600);
    writeFileSync(join(dir, 'elsewhere'), readFileSync(path), { mode: 0o600 });
    rmSync(path);
    symlinkSync(join(dir, 'elsewhere'), path);
    expect(readServerKey(dir)).toBeUndefined();
    // An empty file of the user's (a start marker, say) is no key.
    rmSync(path);
    writeFileSync(path, '', { mode: 0o600 });
    expect(readServerKey(dir)).toBeUndefined();
    const made = ensureServerKey(dir, randomBytes);
    expect(made).toHaveLength(32);
    expect(made?.equals(key)).toBe(false);
    expect(readServerKey(dir)?.equals(made!)).toBe(true);
  });
});

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { randomUuid, sha256Hex } from './node-crypto';

describe('node:crypto on first use', () => {
  it('hashes and draws ids like node:crypto', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(sha256Hex('abc'));
    expect(randomUuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('is not loaded by importing @cairn/core', () => {
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `await import(${JSON.stringify(dist)});
      const loaded = () => process.moduleLoadList.includes('NativeModule crypto');
      const before = loaded();
      (await import(${JSON.stringify(dist)})).sha256Hex('x');
      console.log(JSON.stringify({ before, after: loaded() }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ before: false, after: true });
  });
});

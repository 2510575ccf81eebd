import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildEntry, cacheEntry, cacheKey, readCached } from './lived-in-cache';
import { FULL_SPEC, GENERATOR_VERSION, QUICK_SPEC } from './lived-in-generator';

describe('cacheKey', () => {
  const base = { seed: 1, spec: FULL_SPEC, engineHash: 'abc' };

  it('is stable for the same inputs and changes with each of them', () => {
    const key = cacheKey(base);
    expect(cacheKey({ ...base })).toBe(key);
    expect(cacheKey({ ...base, version: GENERATOR_VERSION + 1 })).not.toBe(key);
    expect(cacheKey({ ...base, seed: 2 })).not.toBe(key);
    expect(cacheKey({ ...base, engineHash: 'abd' })).not.toBe(key);
    expect(cacheKey({ ...base, spec: QUICK_SPEC })).not.toBe(key);
  });

  it('names the size, so quick and full entries never share a folder', () => {
    expect(cacheKey(base)).toMatch(/^2000s-[0-9a-f]{16}$/);
    expect(cacheKey({ ...base, spec: QUICK_SPEC })).toMatch(/^60s-/);
  });
});

describe('buildEntry', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'lived-in-cache-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('publishes the entry only when the build completed', async () => {
    const entry = await buildEntry(
      '60s-aaaa',
      async (temp) => {
        expect(existsSync(cacheEntry('60s-aaaa', root).dir)).toBe(false);
        await writeFile(temp.manifestPath, '{"ok":true}');
      },
      root,
    );
    expect(await readCached(entry)).toEqual({ ok: true });
    expect(await readdir(root)).toEqual(['60s-aaaa']);
  });

  it('leaves nothing behind when the build fails', async () => {
    await expect(
      buildEntry(
        '60s-bbbb',
        async (temp) => {
          await writeFile(temp.manifestPath, '{}');
          throw new Error('interrupted');
        },
        root,
      ),
    ).rejects.toThrow('interrupted');
    expect(await readdir(root)).toEqual([]);
    expect(await readCached(cacheEntry('60s-bbbb', root))).toBeUndefined();
  });

  it('replaces an older entry of the same size and keeps other sizes', async () => {
    const write = (key: string) =>
      buildEntry(key, (temp) => writeFile(temp.manifestPath, '{}'), root);
    await write('60s-old');
    await write('2000s-full');
    await write('60s-new');
    expect((await readdir(root)).sort()).toEqual(['2000s-full', '60s-new']);
  });
});

import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let root: string;
let cacheDir: string;
const cli = cliRunner(() => root, {});
const run = (args: string[]) => cli.run(args, undefined, { TMPDIR: join(root, 'tmp') });
const caches = () => readdirSync(cacheDir).filter((name) => name.endsWith('.bin'));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-compile-cache-'));
  cacheDir = join(root, 'tmp', 'cairn-compile-cache');
  mkdirSync(join(root, 'tmp'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the code cache of the `cairn` binary', () => {
  it('keeps one cache per command under TMPDIR and reuses it', () => {
    expect(run(['--version']).code).toBe(0);
    expect(run(['search', 'anything', '--json']).code).toBe(0);
    const written = caches();
    expect(written.some((name) => name.endsWith('---version.bin'))).toBe(true);
    expect(written.some((name) => name.endsWith('-search.bin'))).toBe(true);

    const search = join(cacheDir, written.find((name) => name.endsWith('-search.bin'))!);
    const before = statSync(search).mtimeMs;
    const again = run(['search', 'anything', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ ok: true, results: [] });
    // An accepted cache is not written again.
    expect(statSync(search).mtimeMs).toBe(before);
  });

  it('runs normally from a damaged cache and replaces it', () => {
    expect(run(['--version']).code).toBe(0);
    const [version] = caches();
    writeFileSync(join(cacheDir, version!), 'not a code cache');
    const damaged = run(['--version']);
    expect(damaged.code).toBe(0);
    expect(damaged.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(statSync(join(cacheDir, version!)).size).toBeGreaterThan(1000);
  });

  it('prunes caches written more than a week ago when it writes one', () => {
    mkdirSync(cacheDir, { recursive: true });
    const stale = join(cacheDir, 'v0.0.0-x64-1-1-search.bin');
    writeFileSync(stale, 'old build');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(stale, eightDaysAgo, eightDaysAgo);
    expect(run(['--help']).code).toBe(0);
    expect(caches()).toEqual([expect.stringMatching(/---help\.bin$/)]);
  });

  it('still runs when the temp dir cannot hold a cache', () => {
    rmSync(join(root, 'tmp'), { recursive: true });
    writeFileSync(join(root, 'tmp'), 'a file where the temp dir should be');
    const result = run(['--version']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

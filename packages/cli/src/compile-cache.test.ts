import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash, writeAtomically } from './compile-cache';
import { cliRunner } from './test-cli';

let root: string;
let cacheDir: string;
const cli = cliRunner(() => root, {});
const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  cli.run(args, undefined, { TMPDIR: join(root, 'tmp'), XDG_CACHE_HOME: undefined, ...env });
const caches = () => readdirSync(cacheDir).filter((name) => name.endsWith('.bin'));
const mainBundle = fileURLToPath(new URL('../dist/main.cjs', import.meta.url));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-compile-cache-'));
  cacheDir = join(root, 'home', '.cache', 'cairn', 'compile-cache');
  mkdirSync(join(root, 'tmp'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/**
 * A cache built from other source of the same length as main.cjs whose
 * top level writes `marker`: V8 accepts it for main.cjs (it checks only the
 * length), so a loader that reads it runs the other source.
 */
const FOREIGN_CACHE_BUILDER = `
const [realFile, marker, out] = process.argv.slice(1);
const Module = require('node:module');
const vm = require('node:vm');
const fs = require('node:fs');
const real = fs.readFileSync(realFile, 'utf8');
const evil = "require('node:fs').writeFileSync(" + JSON.stringify(marker) + ", 'ran');";
const script = new vm.Script(Module.wrap(evil.padEnd(real.length)), { filename: realFile });
fs.writeFileSync(out, script.createCachedData());
`;

/** Loads main.cjs through `cache` the way a naive loader would: proves the cache is dangerous. */
const NAIVE_LOADER = `
const [realFile, cache] = process.argv.slice(1);
const Module = require('node:module');
const vm = require('node:vm');
const fs = require('node:fs');
const script = new vm.Script(Module.wrap(fs.readFileSync(realFile, 'utf8')), {
  filename: realFile,
  cachedData: fs.readFileSync(cache),
});
if (script.cachedDataRejected) throw new Error('V8 rejected the foreign cache');
const module = { exports: {} };
script.runInThisContext().call(module.exports, module.exports, Module.createRequire(realFile), module);
`;

function node(script: string, args: string[]): void {
  const result = spawnSync(process.execPath, ['-e', script, ...args], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
}

function foreignCache(marker: string): Buffer {
  const out = join(root, 'foreign.bin');
  node(FOREIGN_CACHE_BUILDER, [mainBundle, marker, out]);
  // Precondition: V8 would run it for main.cjs if handed it.
  node(NAIVE_LOADER, [mainBundle, out]);
  expect(existsSync(marker)).toBe(true);
  rmSync(marker);
  return readFileSync(out);
}

/** The names `--version` reads its cache from: today's (content hash) and the old $TMPDIR one. */
function versionCacheNames(): { current: string; old: string } {
  const hash = createHash('sha256').update(readFileSync(mainBundle)).digest('hex');
  const { size, mtimeMs } = statSync(mainBundle);
  return {
    current: `${hash}-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}---version.bin`,
    old: `${process.version}-${process.arch}-${size}-${Math.trunc(mtimeMs)}---version.bin`,
  };
}

function expectRealVersion(marker: string, env: NodeJS.ProcessEnv = {}): void {
  const result = run(['--version'], env);
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
  expect(existsSync(marker)).toBe(false);
}

describe('the code cache of the `cairn` binary', () => {
  it('keeps one cache per command in a private per-user dir, named by content hash, and reuses it', () => {
    expect(run(['--version']).code).toBe(0);
    expect(run(['init']).code).toBe(0);
    expect(run(['search', 'anything', '--json']).code).toBe(0);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(existsSync(join(root, 'tmp', 'cairn-compile-cache'))).toBe(false);
    const written = caches();
    expect(written).toContain(versionCacheNames().current);
    const searchName = written.find((name) => name.endsWith('-search.bin'));
    expect(searchName).toMatch(/^[0-9a-f]{64}-/);

    const search = join(cacheDir, searchName!);
    const before = statSync(search).mtimeMs;
    const again = run(['search', 'anything', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ ok: true, results: [] });
    // An accepted cache is not written again.
    expect(statSync(search).mtimeMs).toBe(before);
  });

  it('keeps one cache per harness and event for hooks', () => {
    for (const harness of ['claude-code', 'codex']) {
      expect(run(['hook', harness, 'UserPromptSubmit', '--json']).code).toBe(0);
    }
    for (const harness of ['claude-code', 'codex']) {
      const suffix = `-hook-${harness}-UserPromptSubmit.bin`;
      expect(caches().filter((name) => name.endsWith(suffix))).toHaveLength(1);
    }
  });

  it('follows XDG_CACHE_HOME', () => {
    const xdg = join(root, 'xdg-cache');
    expect(run(['--version'], { XDG_CACHE_HOME: xdg }).code).toBe(0);
    expect(readdirSync(join(xdg, 'cairn', 'compile-cache'))).toContain(versionCacheNames().current);
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
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const stale = join(cacheDir, 'v0.0.0-x64-1-1-search.bin');
    writeFileSync(stale, 'old build');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(stale, eightDaysAgo, eightDaysAgo);
    expect(run(['--help']).code).toBe(0);
    expect(caches()).toEqual([expect.stringMatching(/---help\.bin$/)]);
  });

  it('still runs when the cache dir cannot be created', () => {
    mkdirSync(join(root, 'home'));
    writeFileSync(join(root, 'home', '.cache'), 'a file where the cache dir should be');
    const result = run(['--version']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('a planted code cache', () => {
  it('is never read from the old shared $TMPDIR location', () => {
    const marker = join(root, 'planted-ran');
    const old = join(root, 'tmp', 'cairn-compile-cache');
    mkdirSync(old);
    writeFileSync(join(old, versionCacheNames().old), foreignCache(marker));
    expectRealVersion(marker);
  });

  it('is not used from a cache dir that others can read or write (left as it is)', () => {
    const marker = join(root, 'planted-ran');
    mkdirSync(cacheDir, { recursive: true });
    chmodSync(cacheDir, 0o755);
    const planted = join(cacheDir, versionCacheNames().current);
    writeFileSync(planted, foreignCache(marker));
    expectRealVersion(marker);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o755);
    expect(caches()).toEqual([versionCacheNames().current]);
  });

  it.runIf(process.getuid?.() === 0)('is not used from a cache dir owned by another user', () => {
    const marker = join(root, 'planted-ran');
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(cacheDir, versionCacheNames().current), foreignCache(marker));
    chownSync(cacheDir, 65534, 65534);
    expectRealVersion(marker);
    expect(statSync(cacheDir).uid).toBe(65534);
  });

  it('is not used through a cache dir that is a symlink', () => {
    const marker = join(root, 'planted-ran');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    writeFileSync(join(elsewhere, versionCacheNames().current), foreignCache(marker));
    mkdirSync(join(cacheDir, '..'), { recursive: true });
    symlinkSync(elsewhere, cacheDir);
    expectRealVersion(marker);
  });

  it('is not followed when the cache file itself is a symlink', () => {
    const marker = join(root, 'planted-ran');
    const elsewhere = join(root, 'foreign.bin.link-target');
    writeFileSync(elsewhere, foreignCache(marker));
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, join(cacheDir, versionCacheNames().current));
    expectRealVersion(marker);
  });
});

describe('the ownership rule for the code cache (docs/SECURITY.md)', () => {
  const isRoot = process.getuid?.() === 0;

  it.runIf(isRoot)(
    'is neither read nor written below a folder another user owns (a squatted XDG_CACHE_HOME; needs root)',
    () => {
      const marker = join(root, 'planted-ran');
      const squat = join(root, 'squat');
      mkdirSync(squat, { mode: 0o755 });
      const xdg = join(squat, 'cache');
      // Our own private folder, as an earlier run made it: only a folder above is theirs.
      const dir = join(xdg, 'cairn', 'compile-cache');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(join(dir, versionCacheNames().current), foreignCache(marker));
      chownSync(squat, 65534, 65534);
      expectRealVersion(marker, { XDG_CACHE_HOME: xdg });
      expect(readdirSync(dir)).toEqual([versionCacheNames().current]);
      const status = run(['status'], { XDG_CACHE_HOME: xdg });
      expect(existsSync(marker)).toBe(false);
      expect(status.stdout).toContain(
        `Cairn's cache folder ${join(xdg, 'cairn')} is not used (no code cache, and no hook server: each hook event runs in its own process): ${squat} belongs to another user (uid 65534), not to you or root; run \`chown root ${squat}\``,
      );
    },
  );

  it('does not load a cache file others can write, even in a private folder', () => {
    const marker = join(root, 'planted-ran');
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const planted = join(cacheDir, versionCacheNames().current);
    writeFileSync(planted, foreignCache(marker));
    chmodSync(planted, 0o666);
    expectRealVersion(marker);
    if (!isRoot) return;
    // Nor one another user owns (needs root to chown).
    writeFileSync(planted, foreignCache(marker));
    chmodSync(planted, 0o600);
    chownSync(planted, 65534, 65534);
    expectRealVersion(marker);
  });

  it('is used in a folder of ours below a sticky world-writable one (HOME=/tmp)', () => {
    const sharedTmp = join(root, 'shared-tmp');
    mkdirSync(sharedTmp);
    chmodSync(sharedTmp, 0o1777);
    expect(run(['--version'], { HOME: sharedTmp }).code).toBe(0);
    const dir = join(sharedTmp, '.cache', 'cairn', 'compile-cache');
    expect(readdirSync(dir)).toContain(versionCacheNames().current);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it.runIf(isRoot)(
    'is not used when another user took that folder first in the sticky one (HOME=/tmp; needs root)',
    () => {
      const sharedTmp = join(root, 'shared-tmp');
      mkdirSync(sharedTmp);
      chmodSync(sharedTmp, 0o1777);
      const squatted = join(sharedTmp, '.cache');
      mkdirSync(squatted, { mode: 0o777 });
      chownSync(squatted, 65534, 65534);
      expect(run(['--version'], { HOME: sharedTmp }).code).toBe(0);
      expect(readdirSync(squatted)).toEqual([]);
    },
  );

  const runAsNobody =
    isRoot &&
    process.platform === 'linux' &&
    spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']).status === 0;

  it.skipIf(!runAsNobody)(
    "as another user, trusts root's folders and its own, not a third user's (needs root and setpriv)",
    () => {
      chmodSync(root, 0o755);
      const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
      const asNobody = (xdg: string) =>
        spawnSync(
          'setpriv',
          ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bin, '--version'],
          { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: xdg, XDG_CACHE_HOME: xdg } },
        );
      // Folders above owned by root (this temp folder, /tmp, /): trusted.
      const own = join(root, 'nobody-cache');
      mkdirSync(own, { mode: 0o700 });
      chownSync(own, 65534, 65534);
      expect(asNobody(own).status).toBe(0);
      expect(readdirSync(join(own, 'cairn', 'compile-cache'))).toHaveLength(1);
      // A folder above owned by a third user (uid 4242): not.
      const third = join(root, 'third');
      mkdirSync(third, { mode: 0o755 });
      const inside = join(third, 'nobody-cache');
      mkdirSync(inside, { mode: 0o700 });
      chownSync(inside, 65534, 65534);
      chownSync(third, 4242, 4242);
      expect(asNobody(inside).status).toBe(0);
      expect(readdirSync(inside)).toEqual([]);
    },
  );
});

describe('writeAtomically', () => {
  it('never writes through a file or symlink already at its temp name', () => {
    const victim = join(root, 'victim');
    writeFileSync(victim, 'untouched');
    const target = join(root, 'cache.bin');
    symlinkSync(victim, `${target}.fixed.tmp`);
    expect(() => writeAtomically(target, Buffer.from('cache'), 'fixed')).toThrow(/EEXIST/);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(existsSync(target)).toBe(false);

    writeAtomically(target, Buffer.from('cache'));
    expect(readFileSync(target, 'utf8')).toBe('cache');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(root).filter((name) => name.endsWith('.tmp'))).toEqual([
      'cache.bin.fixed.tmp',
    ]);
  });
});

describe('contentHash', () => {
  it('reads the hash the build recorded, and computes it when there is none', () => {
    const bytes = readFileSync(mainBundle);
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(readFileSync(`${mainBundle}.sha256`, 'utf8').trim()).toBe(sha);
    expect(contentHash(mainBundle, bytes)).toBe(sha);
    const copy = join(root, 'bundle.cjs');
    writeFileSync(copy, bytes);
    expect(contentHash(copy, bytes)).toBe(sha);
    writeFileSync(`${copy}.sha256`, 'not a hash\n');
    expect(contentHash(copy, bytes)).toBe(sha);
  });
});

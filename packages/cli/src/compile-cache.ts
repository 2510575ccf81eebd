import { isAscii } from 'node:buffer';
import type * as NodeCrypto from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { privateDir, userCacheDir } from './private-dir';

/**
 * Loads one CommonJS file through a V8 code cache. Hooks and `cairn
 * search` start a process per call, and compiling the bundled CLI is a
 * large part of that start: with the cache, V8 deserializes the code it
 * compiled last time instead. Unlike Node's own `module.enableCompileCache()`
 * (22.1+), the cache is written when the process exits, so it also holds
 * the functions compiled lazily while the command ran; `variant` (the
 * command name) keeps one cache per command for that reason.
 *
 * A code cache is code: V8 checks only the source's length and its own
 * flags before running it, so a cache built from other source of the same
 * length runs as if it were ours. Hence the cache lives in a per-user
 * directory (`$XDG_CACHE_HOME/cairn/compile-cache`, else
 * `~/.cache/cairn/compile-cache`) that must pass the ownership rule
 * (private-dir.ts: it and every folder above it are ours or root's and
 * closed to others; it is mode 0700 and not a symlink; otherwise nothing is
 * cached or read), and each file is named after the sha256 of the source it
 * was built from (plus its size and mtime). Files are opened without
 * following symlinks, read only when they are ours (or root's) and
 * writable by no one else, and written to an exclusive temp file, then renamed.
 * Writing one prunes caches written more than a week ago (earlier builds).
 * Any failure to read or write a cache only costs the compile it would have
 * saved.
 */
export function requireWithCompileCache(filename: string, variant = ''): unknown {
  const bytes = readFileSync(filename);
  // The bundles are ASCII (esbuild escapes the rest): read as Latin-1, the
  // bytes are copied as they are instead of going through a UTF-8 decoder.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const cacheFile = cachePath(filename, bytes, variant);
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const script = new vm.Script(Module.wrap(source), { filename, cachedData });
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => writeCache(cacheFile, script));
  }
  const module = { exports: {} as unknown, filename, id: filename, loaded: false };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(filename),
    module,
    filename,
    dirname(filename),
  );
  module.loaded = true;
  return module.exports;
}

const PRUNE_AFTER_MS = 7 * 24 * 3600 * 1000;

/** `$XDG_CACHE_HOME/cairn/compile-cache`, else `~/.cache/cairn/compile-cache` (relative XDG values are ignored, as the spec says). */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(userCacheDir(env), 'compile-cache');
}

/** The private cache directory, created when missing; undefined when it is not safe to use. */
function privateCacheDir(): string | undefined {
  return privateDir(compileCacheDir());
}

/** `node:crypto`, loaded only when used: loading it costs a few ms, and most starts never need it. */
function nodeCrypto(): typeof NodeCrypto {
  return process.getBuiltinModule('node:crypto') as typeof NodeCrypto;
}

/**
 * The sha256 of `bytes`, the content of `filename`. The build records it
 * next to each bundle (`main.cjs.sha256`, see tsup.config.ts) so a start
 * need not load `node:crypto` to compute it; without a well-formed record
 * it is computed here. The key also holds the file's size and mtime, so a
 * bundle changed after its build (and its record gone stale) gets a new key.
 */
export function contentHash(filename: string, bytes: Buffer): string {
  try {
    const recorded = readFileSync(`${filename}.sha256`, 'latin1').trim();
    if (/^[0-9a-f]{64}$/.test(recorded)) return recorded;
  } catch {
    // no record: hash it here
  }
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

function cachePath(filename: string, bytes: Buffer, variant: string): string | undefined {
  const dir = privateCacheDir();
  if (!dir) return undefined;
  try {
    const { mtimeMs } = statSync(filename);
    const hash = contentHash(filename, bytes);
    const name = variant.replace(/[^a-z0-9-]/gi, '').slice(0, 48);
    const stamp = `${bytes.length}-${Math.trunc(mtimeMs)}`;
    return join(dir, `${hash}-${stamp}-${process.version}-${process.arch}-${name}.bin`);
  } catch {
    return undefined;
  }
}

function readCache(cacheFile: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(cacheFile, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    return isOwnCacheFile(fstatSync(fd)) ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A regular file of this user's (or root's) that only its owner can write:
 * anything else in the folder was not written by this user's Cairn.
 */
function isOwnCacheFile(stat: Stats): boolean {
  if (!stat.isFile()) return false;
  if (typeof process.getuid !== 'function') return true; // Windows: no uid or POSIX modes
  const owner = stat.uid === process.getuid() || stat.uid === 0;
  return owner && (stat.mode & 0o022) === 0;
}

function writeCache(cacheFile: string, script: vm.Script): void {
  try {
    writeAtomically(cacheFile, script.createCachedData());
    pruneStale(dirname(cacheFile));
  } catch {
    // A read-only or full disk: the next run compiles again.
  }
}

/**
 * Writes `data` to a new temp file next to `file`, then renames it into
 * place. The temp file is created exclusively ('wx': O_CREAT | O_EXCL), so
 * a file or symlink already at its name makes this throw instead of being
 * written through.
 */
export function writeAtomically(
  file: string,
  data: Uint8Array,
  suffix = nodeCrypto().randomBytes(8).toString('hex'),
): void {
  const temp = `${file}.${suffix}.tmp`;
  writeFileSync(temp, data, { flag: 'wx', mode: 0o600 });
  renameSync(temp, file);
}

/** Removes caches of earlier builds (a new build changes the key) once they go unused. */
function pruneStale(dir: string): void {
  const cutoff = Date.now() - PRUNE_AFTER_MS;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (lstatSync(path).mtimeMs < cutoff) unlinkSync(path);
    } catch {
      // Another process pruned it first.
    }
  }
}

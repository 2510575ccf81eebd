import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * Loads one CommonJS file through a V8 code cache. Hooks and `cairn
 * search` start a process per call, and compiling the bundled CLI is a
 * large part of that start: with the cache, V8 deserializes the code it
 * compiled last time instead. Unlike Node's own `module.enableCompileCache()`
 * (22.1+), the cache is written when the process exits, so it also holds
 * the functions compiled lazily while the command ran; `variant` (the
 * command name) keeps one cache per command for that reason.
 *
 * The cache lives under the OS temp dir (where Node 22's own compile cache
 * goes), keyed by Node version, the file's size and mtime and the variant,
 * and is written atomically. Writing one prunes caches written more than a
 * week ago (earlier builds; a current one is simply written again). Any failure to read or write a cache only costs the
 * compile it would have saved.
 */
export function requireWithCompileCache(filename: string, variant = ''): unknown {
  const source = readFileSync(filename, 'utf8');
  const cacheFile = cachePath(filename, variant);
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
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

function cachePath(filename: string, variant: string): string | undefined {
  try {
    const { size, mtimeMs } = statSync(filename);
    const name = variant.replace(/[^a-z0-9-]/gi, '').slice(0, 32);
    const key = `${process.version}-${process.arch}-${size}-${Math.trunc(mtimeMs)}-${name}`;
    return join(tmpdir(), 'cairn-compile-cache', `${key}.bin`);
  } catch {
    return undefined;
  }
}

function writeCache(cacheFile: string, script: vm.Script): void {
  try {
    const dir = dirname(cacheFile);
    mkdirSync(dir, { recursive: true });
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cacheFile);
    pruneStale(dir);
  } catch {
    // A read-only or full temp dir: the next run compiles again.
  }
}

/** Removes caches of earlier builds (a new build changes the key) once they go unused. */
function pruneStale(dir: string): void {
  const cutoff = Date.now() - PRUNE_AFTER_MS;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (statSync(path).mtimeMs < cutoff) unlinkSync(path);
    } catch {
      // Another process pruned it first.
    }
  }
}

import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * A V8 code cache for one CommonJS file, for Node versions without
 * `module.enableCompileCache()` (Node 20). Hooks start a process per event,
 * and compiling the bundled CLI is the largest cost of that start: with the
 * cache, V8 deserializes the code it compiled last time instead.
 *
 * The cache lives under the OS temp dir (where Node 22's own compile cache
 * goes), keyed by Node version and the file's size and mtime, and is written
 * atomically after the run, so it also holds the functions compiled lazily.
 * Any failure to read or write it only costs the compile it would have saved.
 */
export function requireWithCompileCache(filename: string): unknown {
  const source = readFileSync(filename, 'utf8');
  const cacheFile = cachePath(filename);
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

function cachePath(filename: string): string | undefined {
  try {
    const { size, mtimeMs } = statSync(filename);
    const key = `${process.version}-${process.arch}-${size}-${Math.trunc(mtimeMs)}`;
    return join(tmpdir(), 'cairn-compile-cache', `${key}.bin`);
  } catch {
    return undefined;
  }
}

function writeCache(cacheFile: string, script: vm.Script): void {
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cacheFile);
  } catch {
    // A read-only or full temp dir: the next run compiles again.
  }
}

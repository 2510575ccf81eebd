import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATOR_VERSION, type LivedInSpec } from './lived-in-generator';

/** `bench/.cache/lived-in/`: git-ignored, safe to delete (the next run rebuilds). */
export const CACHE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../.cache/lived-in');

/** The built code of every package that writes under `.cairn/` during the simulation. */
const WRITING_PACKAGES = ['@cairn/core', '@cairn/engine', '@cairn/backend-file'];

function walkJs(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walkJs(path, out);
    else if (entry.name.endsWith('.js') || entry.name.endsWith('.cjs')) out.push(path);
  }
  return out;
}

/**
 * A hash of the built JavaScript of core, engine and backend-file. Why the
 * whole build rather than the migrations' source: what lands on disk also
 * depends on code that no schema version tracks (how a tool event becomes
 * transcript text, how units are serialized, what the index stores), and a
 * snapshot written by older code would make the storage and lossless
 * figures describe that older code. Any change to these packages rebuilds
 * the lived-in project; the replay and hook figures are always of the
 * current build either way.
 */
export function engineBuildHash(): string {
  const require = createRequire(import.meta.url);
  const hash = createHash('sha256');
  for (const name of WRITING_PACKAGES) {
    const dist = join(dirname(require.resolve(`${name}/package.json`)), 'dist');
    for (const file of walkJs(dist).sort()) {
      hash.update(`${name}/${relative(dist, file)}\0`);
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

/** The cache entry name: changes with the generator version, the seed, the sizes or the engine build. */
export function cacheKey(input: {
  seed: number;
  spec: LivedInSpec;
  engineHash: string;
  version?: number;
}): string {
  const material = JSON.stringify({
    version: input.version ?? GENERATOR_VERSION,
    seed: input.seed,
    spec: input.spec,
    engine: input.engineHash,
  });
  const size = `${input.spec.sessions}s`;
  return `${size}-${createHash('sha256').update(material).digest('hex').slice(0, 16)}`;
}

export interface CacheEntry {
  dir: string;
  manifestPath: string;
  /** The project after `spec.snapshotAt` sessions, and after all of them. */
  early: string;
  full: string;
}

export function cacheEntry(key: string, root = CACHE_ROOT): CacheEntry {
  const dir = join(root, key);
  return {
    dir,
    manifestPath: join(dir, 'manifest.json'),
    early: join(dir, 'early'),
    full: join(dir, 'full'),
  };
}

/** The manifest of a complete entry, or undefined (an entry without one was never finished). */
export async function readCached<T>(entry: CacheEntry): Promise<T | undefined> {
  if (!existsSync(entry.manifestPath)) return undefined;
  return JSON.parse(await readFile(entry.manifestPath, 'utf8')) as T;
}

const BUILDING = '.building-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds an entry atomically: `build` fills a temporary folder, which is
 * renamed to the entry only once complete, so an interrupted build is never
 * read. Leftovers of dead builds, and older entries of the same size
 * (stale generator or engine), are removed.
 */
export async function buildEntry(
  key: string,
  build: (tempEntry: CacheEntry) => Promise<void>,
  root = CACHE_ROOT,
): Promise<CacheEntry> {
  await mkdir(root, { recursive: true });
  for (const name of await readdir(root)) {
    const pid = Number(name.split('-').at(-1));
    if (name.startsWith(BUILDING) && !alive(pid))
      await rm(join(root, name), { recursive: true, force: true });
  }
  const temp = cacheEntry(`${BUILDING}${key}-${process.pid}`, root);
  await rm(temp.dir, { recursive: true, force: true });
  await mkdir(temp.dir, { recursive: true });
  try {
    await build(temp);
    const entry = cacheEntry(key, root);
    await rm(entry.dir, { recursive: true, force: true });
    await rename(temp.dir, entry.dir);
    const size = key.split('-')[0];
    for (const name of await readdir(root)) {
      if (name !== key && name.startsWith(`${size}-`))
        await rm(join(root, name), { recursive: true, force: true });
    }
    return entry;
  } catch (error) {
    await rm(temp.dir, { recursive: true, force: true });
    throw error;
  }
}

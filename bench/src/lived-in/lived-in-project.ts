import { buildLivedIn, type LivedInManifest } from './lived-in-build';
import {
  buildEntry,
  type CacheEntry,
  cacheEntry,
  cacheKey,
  engineBuildHash,
  readCached,
} from './lived-in-cache';
import {
  createWorld,
  FULL_SPEC,
  LIVED_IN_SEED,
  type LivedInWorld,
  QUICK_SPEC,
} from './lived-in-generator';

export interface LivedInProject {
  world: LivedInWorld;
  entry: CacheEntry;
  manifest: LivedInManifest;
  /** False when this run built the project (its build time is then this run's). */
  cached: boolean;
}

/** The lived-in project of this size: from the cache when its key matches, else built now. */
export async function livedInProject(
  quick: boolean,
  log: (line: string) => void,
): Promise<LivedInProject> {
  const spec = quick ? QUICK_SPEC : FULL_SPEC;
  const world = createWorld(LIVED_IN_SEED, spec);
  const key = cacheKey({ seed: LIVED_IN_SEED, spec, engineHash: engineBuildHash() });
  const existing = cacheEntry(key);
  const manifest = await readCached<LivedInManifest>(existing);
  if (manifest) {
    log(`lived-in: using the cached project ${key} (built ${manifest.builtAt})`);
    return { world, entry: existing, manifest, cached: true };
  }
  log(`lived-in: building ${spec.sessions} sessions into the cache (${key}); this takes a while`);
  let built: LivedInManifest | undefined;
  const entry = await buildEntry(key, async (temp) => {
    built = await buildLivedIn(world, key, temp, log);
  });
  return { world, entry, manifest: built!, cached: false };
}

import { existsSync } from 'node:fs';
import { readHeadCommit } from './git-objects';
import { MaintenanceStore, maintenanceDatabasePath } from './maintenance-store';
import type { AnchorState } from './maintenance-types';

/**
 * The hook point for packs: each anchored unit's worst state at the
 * current HEAD, from the cache a run or `cairn review` filled, without
 * starting git (HEAD is read from `.git`). Undefined when this HEAD was
 * not checked yet: a pack then shows units as they are, and the next
 * maintenance check fills the cache.
 */
export function cachedStaleness(rootDir: string): Map<string, AnchorState> | undefined {
  const head = readHeadCommit(rootDir);
  if (!head || !existsSync(maintenanceDatabasePath(rootDir))) return undefined;
  const store = MaintenanceStore.open(rootDir);
  try {
    const checks = store.cachedChecks(`${head} ${store.anchorsVersion()}`);
    if (!checks) return undefined;
    const rank: Record<AnchorState, number> = {
      fresh: 0,
      unverifiable: 0,
      moved: 1,
      changed: 2,
      deleted: 3,
    };
    const states = new Map<string, AnchorState>();
    for (const check of checks) {
      const seen = states.get(check.anchor.memoryId);
      if (!seen || rank[check.state] > rank[seen]) states.set(check.anchor.memoryId, check.state);
    }
    return states;
  } finally {
    store.close();
  }
}

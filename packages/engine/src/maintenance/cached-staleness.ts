import { existsSync } from 'node:fs';
import { readHeadCommit } from './git-objects';
import { MaintenanceStore, maintenanceDatabasePath } from './maintenance-store';
import type { AnchorCheck, AnchorState } from './maintenance-types';

const RANK: Record<AnchorState, number> = {
  fresh: 0,
  unverifiable: 0,
  moved: 1,
  changed: 2,
  deleted: 3,
};

/**
 * Each anchored unit's worst check at the current HEAD (the anchor it
 * checked included: its path, symbol and the commit it was taken at),
 * from the cache a run or `cairn review` filled, without starting git
 * (HEAD is read from `.git`). Undefined when this HEAD was not checked
 * yet, or nothing was ever checked: a pack then shows units as they are,
 * and the next maintenance check fills the cache. Never creates the store.
 */
export function cachedAnchorChecks(rootDir: string): Map<string, AnchorCheck> | undefined {
  const head = readHeadCommit(rootDir);
  if (!head || !existsSync(maintenanceDatabasePath(rootDir))) return undefined;
  const store = MaintenanceStore.open(rootDir);
  try {
    const checks = store.cachedChecks(`${head} ${store.anchorsVersion()}`);
    if (!checks) return undefined;
    const worst = new Map<string, AnchorCheck>();
    for (const check of checks) {
      const seen = worst.get(check.anchor.memoryId);
      if (!seen || RANK[check.state] > RANK[seen.state]) worst.set(check.anchor.memoryId, check);
    }
    return worst;
  } finally {
    store.close();
  }
}

/** The hook point for packs: each anchored unit's worst state at the current HEAD (`cachedAnchorChecks`). */
export function cachedStaleness(rootDir: string): Map<string, AnchorState> | undefined {
  const checks = cachedAnchorChecks(rootDir);
  if (!checks) return undefined;
  return new Map([...checks].map(([memoryId, check]) => [memoryId, check.state]));
}

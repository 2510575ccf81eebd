import { existsSync } from 'node:fs';
import { readHeadCommit } from './git-objects';
import { MaintenanceStore, maintenanceDatabasePath } from './maintenance-store';
import type { AnchorCheck, AnchorState } from './maintenance-types';
import { worstAnchorChecks } from './worst-anchor-states';

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
    return worstAnchorChecks(checks);
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

import { existsSync } from 'node:fs';
import { sha256Hex } from '@cairn/core';
import type { Database } from '../store';
import type { AnchorCheck, AnchorState } from './anchor-types';
import { readHeadCommit } from './head-commit';
import { maintenanceDatabasePath, openMaintenanceDatabase } from './maintenance-database';
import { worstAnchorChecks } from './worst-anchor-states';

/** The cached checks for `cacheKey` (HEAD and the anchors' version), if this HEAD was checked. */
export function readCachedChecks(db: Database, cacheKey: string): AnchorCheck[] | undefined {
  const row = db.prepare('SELECT body FROM anchor_checks WHERE cache_key = ?').get(cacheKey) as
    | { body: string }
    | undefined;
  return row ? (JSON.parse(row.body) as AnchorCheck[]) : undefined;
}

/** Keeps only the newest check: a cache for one HEAD. */
export function writeCachedChecks(
  db: Database,
  cacheKey: string,
  checks: readonly AnchorCheck[],
  at: string,
): void {
  db.transaction(() => {
    db.prepare('DELETE FROM anchor_checks').run();
    db.prepare('INSERT INTO anchor_checks (cache_key, checked_at, body) VALUES (?, ?, ?)').run(
      cacheKey,
      at,
      JSON.stringify(checks),
    );
  })();
}

/** A version of the anchor table: changes whenever an anchor is added, moved or dropped. */
export function anchorsVersion(db: Database): string {
  const rows = db
    .prepare(
      "SELECT memory_id, path, symbol, span_hash, commit_sha FROM anchors WHERE path <> '' ORDER BY memory_id, path, symbol",
    )
    .all() as Record<string, string>[];
  return sha256Hex(JSON.stringify(rows)).slice(0, 16);
}

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
  const db = openMaintenanceDatabase(rootDir);
  try {
    const checks = readCachedChecks(db, `${head} ${anchorsVersion(db)}`);
    if (!checks) return undefined;
    return worstAnchorChecks(checks);
  } finally {
    db.close();
  }
}

/** Each anchored unit's worst state at the current HEAD (`cachedAnchorChecks`). */
export function cachedStaleness(rootDir: string): Map<string, AnchorState> | undefined {
  const checks = cachedAnchorChecks(rootDir);
  if (!checks) return undefined;
  return new Map([...checks].map(([memoryId, check]) => [memoryId, check.state]));
}

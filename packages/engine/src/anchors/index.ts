/**
 * Code anchors of units that cite code, below packs: their types, HEAD read
 * from `.git` without a process, the maintenance database they live in and
 * the cache of their checks at one HEAD, which a pack reads to mark stale
 * units. Checking them (git, citations) stays in maintenance/.
 */
export {
  anchorsVersion,
  cachedAnchorChecks,
  cachedStaleness,
  readCachedChecks,
  writeCachedChecks,
} from './anchor-cache';
export type { AnchorCheck, AnchorState, CodeAnchor } from './anchor-types';
export { isCommitSha, readHeadCommit } from './head-commit';
export {
  maintenanceDatabasePath,
  openMaintenanceDatabase,
} from './maintenance-database';
export { worstAnchorChecks, worstAnchorStates } from './worst-anchor-states';

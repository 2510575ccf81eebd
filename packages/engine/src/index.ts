import pkg from '../package.json' with { type: 'json' };

/*
 * The engine's public entry: what other packages (cli, mcp, server, the
 * harness plugins, the bench) use, by name. A name only engine code uses
 * stays behind its folder's entry; tools/repo's engine-modules test keeps
 * this list short and every name in it used.
 */

export const VERSION: string = pkg.version;
export {
  SQLITE_DRIVER_FIX,
  settleWriteAheadLogs,
  sqliteDriverProblem,
  useBundledBetterSqlite3,
} from '@cairn/sqlite';
export { exportProject, importProject } from './backup';
export type { Cairn, CairnStatus } from './cairn-api';
export { type DoctorFinding, formatBytes, linkFindings } from './doctor';
export {
  type ApprovalPromotion,
  approveAndPromoteFixPattern,
  checkFixPatternState,
  deprecateFixPattern,
  errorSignature,
  FIX_PATTERN_STATES,
  type FixPattern,
  type FixPatternDetail,
  findRunDigest,
  getFixPattern,
  listFixPatterns,
  patternStateLabel,
  RUN_OUTCOMES,
  recentRunDigests,
  renderFixPattern,
  renderRunDigest,
  reopenFixPattern,
  type SharedFixesSync,
  type StoredRunDigest,
} from './history';
/** The one place harness events run: project discovery, kept projects, fail-open, close. */
export { eventProjectRoot, type LifecycleHost, openLifecycleHost } from './lifecycle-host';
export {
  type LineageAgent,
  type LineageStore,
  type NodeExpansion,
  openLineageStore,
} from './lineage';
export {
  openMaintenance,
  PROPOSAL_KINDS,
  PROPOSAL_STATES,
  type Proposal,
  type ProposalDecisionResult,
  type StaleUnit,
} from './maintenance';
export { type MemorySearch, openMemorySearch } from './memory-api';
export { openCairn } from './open-cairn';
export type { OpenCairnOptions } from './open-options';
export {
  type ContextPack,
  describeEvidence,
  describeProvenance,
  escapePackLabel,
  escapePackText,
  isPackProfileName,
  loadTokenizer,
  PACK_PLANES,
  PACK_PROFILE_NAMES,
  type PackCandidate,
  type PackPlane,
  type PackProfileName,
  renderPack,
  retrieveContextPack,
} from './packs';
export {
  findProjectRoot,
  locateProject,
  notInitializedError,
  type ProjectLocation,
} from './project-lookup';
export type { SearchHit } from './recall';
export { importOptionalModule, setModuleImporter } from './runtime';
export { assertProjectLayout } from './store';
export { type MemoryRecord, UNIT_ERROR_CODES, type UnitErrorCode } from './units';
export { type InjectionReceipt, lastPackReceipts } from './working';

/** Task history: error signatures, failures of tool events, run digests, fix patterns and their promotion. */
export { type ApprovalPromotion, approveAndPromoteFixPattern } from './approve-pattern';
export { findRunDigest, recentRunDigests } from './digest-queries';
export { errorSignature } from './error-signature';
export {
  fixPatternSteps,
  patternStateLabel,
  renderFixPattern,
  sharedByLine,
} from './fix-pattern-render';
export { patternDetail } from './fix-pattern-store';
export {
  FIX_PATTERN_STATES,
  type FixPattern,
  type FixPatternDetail,
  type FixPatternRun,
} from './fix-pattern-types';
export {
  approveFixPattern,
  checkFixPatternState,
  deprecateFixPattern,
  getFixPattern,
  listFixPatterns,
  patternsForPack,
  reopenFixPattern,
} from './fix-patterns-api';
export { type FixStep, stepsIdentity } from './fix-steps';
export {
  DEFAULT_HISTORY_NAMESPACE,
  HISTORY_DB_FILENAME,
  HISTORY_MIGRATIONS,
  type HistoryScope,
  historyDatabasePath,
  historyScope,
  namespaceOf,
  openHistoryDatabase,
} from './history-database';
export type { HistoryRecorder, KnownFix } from './history-recorder';
export {
  DIGEST_RECORDS,
  digestRecordPath,
  HISTORY_POOL_ID,
  PATTERN_RECORDS,
  patternRecordPath,
  renderDigestRecord,
  renderPatternRecord,
} from './history-records';
export { loadHistoryRecorder } from './load-history-recorder';
export { hasOpenFailureFlag } from './open-failure-flag';
export {
  fixPatternUnitText,
  promoteVerifiedPattern,
  type RecurringGotcha,
  recurringGotchas,
  sourceFor,
} from './promote';
export { digestGotchaQuotes, renderRunDigest, renderRunDigestBrief } from './render-run-digest';
export { decodeRunDigest, latestRunDigest, listRunDigests } from './run-digest-store';
export {
  digestNamespace,
  NO_FINAL_ANSWER,
  RUN_OUTCOMES,
  type StoredRunDigest,
} from './run-digest-types';
export { createGitRunner, findGit } from './safe-git';
export { createSessionDigests } from './session-digest';
export {
  applySharedFixes,
  readSharedFixes,
  type SharedFixesFile,
  type SharedImport,
  sharedAuthorsOf,
} from './shared-fixes';
export {
  ownSharedPatterns,
  type SharedFixesSync,
  syncSharedFixes,
  writeSharedFixes,
} from './shared-fixes-export';
export { parseSharedFixes, type SharedPattern } from './shared-fixes-file';
export { isLowInformation } from './signature-information';
export { detectToolFailure, toolEventFromRecorded } from './tool-failure';
export {
  endSessionFailures,
  type HistoryAccess,
  recordToolOutcome,
  type ToolOutcomeInput,
} from './tool-outcome-recorder';

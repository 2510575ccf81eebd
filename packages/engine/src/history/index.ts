// Task history: error signatures, failures of tool events, run digests, fix patterns and their promotion.
export {
  type ApprovalMemory,
  type ApprovalPromotion,
  type ApprovedPattern,
  approveAndPromoteFixPattern,
  promoteApprovedPattern,
} from './approve-pattern';
export { buildRunDigest, type RunDigestInput } from './build-run-digest';
export { commandFamily, toolFamily } from './command-family';
export {
  type DigestQuery,
  findRunDigest,
  type ReadRunDigest,
  recentRunDigests,
  redactRunDigest,
} from './digest-queries';
export {
  type ErrorSignature,
  errorSignature,
  SIGNATURE_RULES,
  type SignatureContext,
} from './error-signature';
export { type FailureSignature, failureSignature } from './failure-signature';
export { patternStateLabel, renderFixPattern } from './fix-pattern-render';
export {
  FIX_PATTERN_STATES,
  type FixPattern,
  type FixPatternDetail,
  type FixPatternRun,
  type FixPatternState,
  type RecordedFailure,
} from './fix-pattern-types';
export {
  approveFixPattern,
  checkFixPatternState,
  deprecateFixPattern,
  getFixPattern,
  listFixPatterns,
  type NamespaceOption,
  patternsForPack,
  patternsForSession,
  patternsForSignatures,
  recentPatterns,
  reopenFixPattern,
} from './fix-patterns-api';
export { type FixStep, type FixStepKind, followsPattern } from './fix-steps';
export { HISTORY_DB_FILENAME, HISTORY_MIGRATIONS, historyDatabasePath } from './history-database';
export {
  DEFAULT_HISTORY_NAMESPACE,
  type HistoryScope,
  historyRepo,
  historyScope,
} from './history-scope';
export {
  PROMOTION_SOURCE,
  type PromotionMemory,
  type PromotionResult,
  promoteFixPattern,
  promoteRecurringFromRun,
  promoteRecurringGotcha,
  type RecurringGotcha,
  recurringGotchas,
} from './promote';
export { digestGotchaQuotes, renderRunDigest, renderRunDigestBrief } from './render-run-digest';
export {
  decodeRunDigest,
  encodeRunDigest,
  getRunDigest,
  type ListRunDigestsOptions,
  listRunDigests,
  recordRunDigest,
} from './run-digest-store';
export {
  digestNamespace,
  type Gotcha,
  RUN_OUTCOMES,
  type RunDigest,
  type RunOutcome,
  type StoredRunDigest,
} from './run-digest-types';
export { createGitReader, findGit, GIT_TIMEOUT_MS, type GitReader } from './safe-git';
export { scrubVolatile } from './scrub-volatile';
export { type DigestSession, digestSession, type SessionDigestContext } from './session-digest';
export { readSharedFixes, type SharedFixesFile, type SharedImport } from './shared-fixes';
export {
  type SharedFixesSync,
  syncSharedFixes,
  writeSharedFixes,
} from './shared-fixes-export';
export {
  MAX_SHARED_FIXES_BYTES,
  parseSharedFixes,
  renderSharedFixes,
  SHARED_FIXES_FORMAT,
  type SharedPattern,
} from './shared-fixes-file';
export {
  isLowInformation,
  MIN_DISTINCTIVE_TOKENS,
  type SignatureInformation,
  type SignatureText,
  signatureInformation,
} from './signature-information';
export type { RuleInput, SignatureRule } from './signature-rule';
export {
  detectToolFailure,
  type FailureReason,
  type ToolEvent,
  type ToolFailure,
  toolEventFromRecorded,
} from './tool-failure';
export {
  endSessionFailures,
  type HistoryAccess,
  recordToolOutcome,
  type ToolOutcome,
  type ToolOutcomeInput,
} from './tool-outcome-recorder';

export { commandFamily, toolFamily } from './command-family';
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
  patternsForSession,
  recentPatterns,
} from './fix-patterns-api';
export { type FixStep, type FixStepKind, followsPattern } from './fix-steps';
export { HISTORY_DB_FILENAME, HISTORY_MIGRATIONS, historyDatabasePath } from './history-database';
export { scrubVolatile } from './scrub-volatile';
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

export { commandFamily, toolFamily } from './command-family';
export {
  type ErrorSignature,
  errorSignature,
  SIGNATURE_RULES,
  type SignatureContext,
} from './error-signature';
export { type FailureSignature, failureSignature } from './failure-signature';
export { scrubVolatile } from './scrub-volatile';
export type { RuleInput, SignatureRule } from './signature-rule';
export {
  detectToolFailure,
  type FailureReason,
  type ToolEvent,
  type ToolFailure,
  toolEventFromRecorded,
} from './tool-failure';

import { type ErrorSignature, errorSignature } from './error-signature';
import { detectToolFailure, type FailureReason, type ToolEvent } from './tool-failure';

export interface FailureSignature extends ErrorSignature {
  reasons: FailureReason[];
}

/**
 * The signature of a failed tool event, with the signs of its failure;
 * undefined when the event did not fail. The tool and its command are the
 * signature's context, so one error under `pnpm install` and `pnpm test`
 * gives two signatures.
 */
export function failureSignature(event: ToolEvent): FailureSignature | undefined {
  const failure = detectToolFailure(event);
  if (!failure.failed) return undefined;
  const context = { tool: event.tool, ...(event.command ? { command: event.command } : {}) };
  return { ...errorSignature(failure.errorText, context), reasons: failure.reasons };
}

import type { UnitErrorCode } from '@cairn/engine';
import type { CommandOutput } from '../command';
import { EXIT } from '../exit-codes';

type UnitResult =
  | { action: 'failed'; error: string; message: string }
  | { action: 'duplicate'; existing: { memoryId: string; path: string; text: string } }
  | { action: string; memoryId?: string; path?: string; category?: string };

/**
 * The exit code of each unit failure: validation failures are usage errors
 * (2); missing ids, RAW targets and I/O are failures (1). A Record, so a new
 * unit code cannot be added without choosing its exit code.
 */
export const UNIT_EXIT_CODES: Record<UnitErrorCode, number> = {
  text_required: EXIT.USAGE,
  text_too_long: EXIT.USAGE,
  text_contains_marker: EXIT.USAGE,
  text_contains_binary: EXIT.USAGE,
  invalid_category: EXIT.USAGE,
  invalid_review: EXIT.USAGE,
  invalid_source: EXIT.USAGE,
  invalid_id: EXIT.USAGE,
  not_found: EXIT.FAILED,
  not_mutable: EXIT.FAILED,
  conflict: EXIT.FAILED,
  write_failed: EXIT.FAILED,
};

/** The code an error line shows: unit codes are printed upper-cased, like CairnError codes. */
export function unitErrorLineCode(code: string): string {
  return code.toUpperCase();
}

/** Turns an add/replace/remove result into CLI output: duplicates are not errors. */
export function unitOutcome(result: UnitResult): CommandOutput {
  const json = { ok: result.action !== 'failed', ...result };
  if (result.action === 'failed' && 'error' in result) {
    return {
      json,
      text: '',
      exitCode: UNIT_EXIT_CODES[result.error as UnitErrorCode] ?? EXIT.FAILED,
      // The message already reads `<what went wrong> — <what to do>`.
      errorLine: `${unitErrorLineCode(result.error)}: ${result.message}`,
    };
  }
  if (result.action === 'duplicate' && 'existing' in result) {
    const { memoryId, path } = result.existing;
    return { json, text: `duplicate of ${memoryId} in ${path}; nothing written` };
  }
  const detail = result as { memoryId?: string; path?: string; category?: string };
  const category = detail.category ? ` (${detail.category})` : '';
  return { json, text: `${result.action} ${detail.memoryId} in ${detail.path}${category}` };
}

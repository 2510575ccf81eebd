import type { CommandOutput } from '../command';
import { EXIT } from '../exit-codes';

type UnitResult =
  | { action: 'failed'; error: string; message: string }
  | { action: 'duplicate'; existing: { memoryId: string; path: string; text: string } }
  | { action: string; memoryId?: string; path?: string; category?: string };

/** Validation failures are usage errors (2); missing ids, RAW targets and I/O are failures (1). */
const USAGE_ERRORS = new Set([
  'text_required',
  'text_too_long',
  'text_contains_marker',
  'text_contains_binary',
  'invalid_category',
  'invalid_review',
  'invalid_source',
  'invalid_id',
]);

/** Turns an add/replace/remove result into CLI output: duplicates are not errors. */
export function unitOutcome(result: UnitResult): CommandOutput {
  const json = { ok: result.action !== 'failed', ...result };
  if (result.action === 'failed' && 'error' in result) {
    return {
      json,
      text: '',
      exitCode: USAGE_ERRORS.has(result.error) ? EXIT.USAGE : EXIT.FAILED,
      errorLine: `${result.error}: ${result.message}`,
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

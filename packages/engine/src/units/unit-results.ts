import type { MemoryCategory, MemoryKind, ReviewState } from '@cairn/core';

/** A memory as returned by get/list: a managed unit or a RAW line range. */
export interface MemoryRecord {
  /** `UNIT:<uuid>` or `RAW:<path>#L<start>-L<end>`. */
  memoryId: string;
  kind: MemoryKind;
  /** Workspace-relative path, e.g. `2026-04-22.md`. */
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  category?: MemoryCategory;
  review?: ReviewState;
  createdAt?: string;
  updatedAt?: string;
  source?: string;
}

/**
 * Error codes of the unit write path (seed 003 names the first). The CLI
 * prints them upper-cased; docs/CLI.md lists each with its exit code.
 */
export const UNIT_ERROR_CODES = [
  'text_required',
  'text_too_long',
  'text_contains_marker',
  'text_contains_binary',
  'invalid_category',
  'invalid_review',
  'invalid_source',
  'invalid_id',
  'not_found',
  'not_mutable',
  'conflict',
  'write_failed',
] as const;

export type UnitErrorCode = (typeof UNIT_ERROR_CODES)[number];

export interface FailedResult {
  action: 'failed';
  error: UnitErrorCode;
  /** `<what went wrong> — <what to do>`, the two halves of a CLI error line. */
  message: string;
}

/** The existing memory a duplicate matched; nothing was written. */
export interface DuplicateResult {
  action: 'duplicate';
  existing: {
    memoryId: string;
    kind: MemoryKind;
    path: string;
    category?: MemoryCategory;
    text: string;
  };
}

export type AddUnitResult =
  | {
      action: 'created';
      memoryId: string;
      kind: 'UNIT';
      path: string;
      category: MemoryCategory;
      text: string;
    }
  | DuplicateResult
  | FailedResult;

export type ReplaceUnitResult =
  | {
      action: 'replaced';
      memoryId: string;
      kind: 'UNIT';
      path: string;
      category: MemoryCategory;
      text: string;
      createdAt: string;
      updatedAt: string;
    }
  | DuplicateResult
  | FailedResult;

export type RemoveUnitResult =
  | { action: 'removed'; memoryId: string; kind: 'UNIT'; path: string }
  | FailedResult;

/** A failed result; `hint` says what to do, so every message has both halves. */
export function failed(error: UnitErrorCode, summary: string, hint: string): FailedResult {
  return { action: 'failed', error, message: `${summary} — ${hint}` };
}

/** A failed result from a CairnError, whose message already ends with its hint when it has one. */
export function failedFrom(
  error: UnitErrorCode,
  cause: { message: string; hint?: string | undefined },
  fallbackHint: string,
): FailedResult {
  return cause.hint
    ? { action: 'failed', error, message: cause.message }
    : failed(error, cause.message, fallbackHint);
}

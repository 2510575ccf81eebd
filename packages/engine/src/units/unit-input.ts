import {
  containsBinary,
  containsMarker,
  inferCategory,
  MEMORY_CATEGORIES,
  type MemoryCategory,
  normalizeUnitText,
  REVIEW_STATES,
  type ReviewState,
} from '@cairn/core';
import { type FailedResult, failed } from './unit-results';

export interface AddUnitInput {
  /** The complete memory to store. */
  text: string;
  /** Inferred by documented rules when absent. */
  category?: MemoryCategory;
  /** Default `approved`: an explicit add is a reviewed memory. */
  review?: ReviewState;
  /** Provenance: a tool, a session, a dialogue turn id. */
  source?: string;
}

export interface ValidUnitInput {
  text: string;
  category: MemoryCategory;
  review: ReviewState;
  source?: string;
}

const MAX_SOURCE_CHARS = 500;

/** Validates unit text; returns the normalized text or a failed result. */
export function validateText(raw: unknown, maxChars: number): string | FailedResult {
  if (typeof raw !== 'string' || normalizeUnitText(raw) === '') {
    return failed(
      'text_required',
      'text is required',
      'pass the complete memory as a non-empty string',
    );
  }
  const text = normalizeUnitText(raw);
  if (text.length > maxChars) {
    return failed(
      'text_too_long',
      `text has ${text.length} characters; the limit is ${maxChars} (limits.maxUnitChars)`,
      'split it into smaller memories',
    );
  }
  if (containsMarker(text)) {
    return failed(
      'text_contains_marker',
      'text must not contain Cairn marker comments (<!-- cairn:… -->, such as the unit, head and thread-head markers)',
      'reword it',
    );
  }
  if (containsBinary(raw)) {
    return failed(
      'text_contains_binary',
      'text holds a NUL byte, U+FFFD (invalid UTF-8) or a lone surrogate',
      'pass UTF-8 text',
    );
  }
  return text;
}

/** Validates an add request (any shape: it may come from MCP, CLI or a hook). */
export function validateAddInput(input: unknown, maxChars: number): ValidUnitInput | FailedResult {
  const value = (typeof input === 'object' && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  const text = validateText(value.text, maxChars);
  if (typeof text !== 'string') return text;
  const category = value.category ?? inferCategory(text);
  if (!MEMORY_CATEGORIES.includes(category as MemoryCategory)) {
    return failed(
      'invalid_category',
      `unknown category ${JSON.stringify(String(category)).slice(0, 80)}`,
      `use one of ${MEMORY_CATEGORIES.join(', ')}`,
    );
  }
  const review = value.review ?? 'approved';
  if (!REVIEW_STATES.includes(review as ReviewState)) {
    return failed(
      'invalid_review',
      `unknown review state ${JSON.stringify(String(review)).slice(0, 80)}`,
      `use one of ${REVIEW_STATES.join(', ')}`,
    );
  }
  const source = value.source;
  if (
    source !== undefined &&
    (typeof source !== 'string' ||
      source.length > MAX_SOURCE_CHARS ||
      // Control characters break the one-line attribute; a lone surrogate cannot be encoded.
      /[\p{Cc}\p{Cs}]/u.test(source))
  ) {
    return failed(
      'invalid_source',
      'source is not a single line of printable text',
      `pass a single line of at most ${MAX_SOURCE_CHARS} characters, without control characters`,
    );
  }
  return {
    text,
    category: category as MemoryCategory,
    review: review as ReviewState,
    ...(source ? { source: source as string } : {}),
  };
}

import {
  MEMORY_CATEGORIES,
  memorySearchFiltersSchema,
  REVIEW_STATES,
  searchQuerySchema,
} from '@cairn/core';
import { z } from 'zod';

/*
 * Input schemas are strict: an unknown or mistyped argument is rejected by the
 * SDK before the engine runs, so nothing is written. Content rules that depend
 * on settings (text length, empty text, id shape) stay in the engine, which
 * answers them with its own codes (text_required, INVALID_INPUT, ...).
 *
 * Output schemas are objects (MCP requires `type: "object"`) and the client
 * validates structured content against them even on errors, so each one
 * admits both the success fields and `error`. They list every field and
 * forbid others; the server parses each result through its schema, so a
 * field the engine adds later is dropped rather than failing validation.
 */

/**
 * What every id argument accepts besides the whole id (core's id-prefix.ts):
 * a unique start, tag optional, of at least four characters after the tag.
 */
export const UNIQUE_START = (example: string) =>
  `a unique start of one (${example}); a start that several ids share is refused with CONFLICT listing them`;

const category = z.enum(MEMORY_CATEGORIES);
const review = z.enum(REVIEW_STATES);
const kind = z.enum(['UNIT', 'RAW']);

const memoryId = z
  .string({
    error: 'memoryId is required: a string such as UNIT:<uuid> or a unique start of one',
  })
  .describe(
    `UNIT:<uuid> as memory_add, memory_list or memory_search return it, or ${UNIQUE_START('UNIT:6c2f615d')}`,
  );

const unitText = z
  .string({ error: 'text is required: the complete memory as a string' })
  .describe('The complete memory: one self-contained statement a later session can act on');

export const addInput = z.strictObject({
  text: unitText,
  category: category
    .optional()
    .describe('preference, fact, decision, entity or other; inferred from the text when absent'),
  review: review.optional().describe('draft, approved (default) or deprecated'),
  source: z
    .string()
    .optional()
    .describe('Provenance on one line (a tool, session or turn id), at most 500 characters'),
});

export const replaceInput = z.strictObject({ memoryId, text: unitText });

export const removeInput = z.strictObject({ memoryId });

export const getInput = z.strictObject({
  memoryId: memoryId.describe(
    `UNIT:<uuid> or ${UNIQUE_START('UNIT:6c2f615d')}; or RAW:<path>#L<start>-L<end> for a range of plain markdown`,
  ),
});

export const listInput = z.strictObject({
  category: category.optional(),
  review: review.optional(),
  since: z.string().optional().describe('ISO date or instant: created at or after'),
  until: z.string().optional().describe('ISO date or instant: created before'),
  path: z.string().optional().describe('Workspace-relative file or prefix, e.g. 2026-04'),
});

/** Core's search query rules (a zod/mini schema), with a description for the tool's JSON Schema. */
const searchQuery = searchQuerySchema.clone();
z.globalRegistry.add(searchQuery, { description: 'What to look for, in plain words' });

export const searchInput = z.strictObject({
  query: searchQuery,
  limit: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('Most results (default: limits.searchLimit)'),
  filters: z
    .optional(memorySearchFiltersSchema)
    .describe('Narrow by category, kind, review, date range or path'),
});

export const readHeadInput = z.strictObject({});

/** A thrown error: a CairnError's code (NOT_FOUND, INVALID_INPUT, ...) or INTERNAL. */
export const errorBody = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
});

/** The kinds of secret replaced in the answer (see docs/SECURITY.md); absent when none. */
export const redactedKinds = z
  .array(z.object({ kind: z.string(), count: z.number() }))
  .optional()
  .describe(
    'Secrets replaced by [REDACTED:<kind>] in this answer, by kind; the markdown keeps them',
  );

export const memoryRecord = z.object({
  memoryId: z.string(),
  kind,
  path: z.string(),
  startLine: z.number(),
  endLine: z.number(),
  text: z.string(),
  category: category.optional(),
  review: review.optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  source: z.string().optional(),
});

const searchResult = z.object({
  path: z.string(),
  startLine: z.number(),
  endLine: z.number(),
  score: z.number(),
  snippet: z.string(),
  memoryId: z.string().optional(),
  kind: kind.optional(),
  category: z.string().optional(),
  createdAt: z.string().optional(),
});

/** The result of add/replace/remove, in seed 003's shapes, or a thrown error. */
function unitResultOutput<const A extends readonly [string, ...string[]]>(actions: A) {
  return z.object({
    action: z.enum(actions).optional().describe('Absent only when the call threw (see error.code)'),
    memoryId: z.string().optional(),
    kind: z.literal('UNIT').optional(),
    path: z.string().optional(),
    category: category.optional(),
    text: z.string().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
    existing: z
      .object({
        memoryId: z.string(),
        kind,
        path: z.string(),
        category: category.optional(),
        text: z.string(),
      })
      .optional()
      .describe('The memory this text duplicates; nothing was written'),
    error: z
      .union([z.string(), errorBody])
      .optional()
      .describe(
        'A failed result carries its code as a string (text_required, not_mutable, ...); a thrown error an object',
      ),
    message: z.string().optional(),
    redacted: redactedKinds,
  });
}

export const addOutput = unitResultOutput(['created', 'duplicate', 'failed']);
export const replaceOutput = unitResultOutput(['replaced', 'duplicate', 'failed']);
export const removeOutput = unitResultOutput(['removed', 'failed']);

export const getOutput = z.object({
  memory: memoryRecord.optional(),
  redacted: redactedKinds,
  error: errorBody.optional(),
});

export const listOutput = z.object({
  units: z.array(memoryRecord).optional().describe('Managed units, oldest first'),
  redacted: redactedKinds,
  error: errorBody.optional(),
});

export const searchOutput = z.object({
  results: z.array(searchResult).optional().describe('Best first, with bounded snippets'),
  redacted: redactedKinds,
  error: errorBody.optional(),
});

export const readHeadOutput = z.object({
  head: z.string().optional().describe('The managed region of MEMORY.md (the team head), or empty'),
  local: z
    .string()
    .optional()
    .describe(
      "This clone's own head: its threads, next actions and lineage; empty before a session end",
    ),
  content: z.string().optional().describe('The whole MEMORY.md'),
  exists: z.boolean().optional(),
  redacted: redactedKinds,
  error: errorBody.optional(),
});

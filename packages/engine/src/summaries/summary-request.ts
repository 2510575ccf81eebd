import { lazySchema, parseInput } from '@cairn/core';
import * as z from 'zod/mini';
import { DEFAULT_MAX_CHARS, type SummaryRequest } from './summary-types';

const transcriptLineSchema = lazySchema(() =>
  z.object({
    role: z.enum(['user', 'assistant', 'tool', 'system']),
    text: z.string(),
    toolName: z.optional(z.string()),
    at: z.optional(z.string()),
  }),
);

const summaryRequestSchema = lazySchema(() =>
  z.object({
    transcript: z.array(transcriptLineSchema),
    threadKey: z.optional(z.string()),
    previous: z.optional(z.string()),
    maxChars: z.optional(z.number().check(z.int(), z.gte(100), z.lte(100_000))),
  }),
);

/** A request whose `maxChars` is resolved. */
export type ResolvedSummaryRequest = SummaryRequest & { maxChars: number };

/**
 * Requests arrive from hooks and MCP tools, so they are checked here; a bad
 * one raises INVALID_INPUT naming the field.
 */
export function parseSummaryRequest(value: unknown): ResolvedSummaryRequest {
  const request = parseInput(summaryRequestSchema, value, 'summary request');
  return { ...request, maxChars: request.maxChars ?? DEFAULT_MAX_CHARS };
}

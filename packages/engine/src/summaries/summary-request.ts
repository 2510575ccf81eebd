import { parseInput } from '@cairn/core';
import { z } from 'zod';
import { DEFAULT_MAX_CHARS, type SummaryRequest } from './summary-types';

const transcriptLineSchema = z.object({
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  text: z.string(),
  toolName: z.string().optional(),
  at: z.string().optional(),
});

const summaryRequestSchema = z.object({
  transcript: z.array(transcriptLineSchema),
  threadKey: z.string().optional(),
  previous: z.string().optional(),
  maxChars: z.number().int().min(100).max(100_000).optional(),
});

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

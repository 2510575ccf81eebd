import { THREAD_KEY_PATTERN, UNIT_ID_PATTERN } from '@cairn/core';
import { z } from 'zod';
import { TEMPORAL_NODE_KINDS, TRANSCRIPT_ROLES } from './lineage-types';

/**
 * Schemas for everything a caller hands the lineage store: hooks, MCP and the
 * CLI pass their input straight through, so nothing is trusted.
 */

const MAX_KEY_CHARS = 256;

export const agentIdSchema = z.string().min(1, 'agentId is required').max(MAX_KEY_CHARS);
export const sessionKeySchema = z.string().min(1, 'sessionKey is required').max(MAX_KEY_CHARS);
export const threadKeySchema = z
  .string()
  .regex(THREAD_KEY_PATTERN, 'threadKey must be lowercase letters, digits, ".", "_" or "-"');
export const nodeIdSchema = z
  .string()
  .regex(/^node:[0-9a-f-]{36}$/, 'node ids look like node:<uuid>');
export const unitIdSchema = z.string().regex(UNIT_ID_PATTERN, 'unit ids look like UNIT:<uuid>');

/** An instant as a Date or an ISO string with offset; stored as UTC so text order is time order. */
export const instantSchema = z
  .union([z.date(), z.iso.datetime({ offset: true })])
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()), 'not a valid instant')
  .transform((date) => date.toISOString());

const singleLine = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !/[\r\n]/.test(value), 'must be a single line');

export const appendEntrySchema = z.object({
  agentId: agentIdSchema,
  sessionKey: sessionKeySchema,
  role: z.enum(TRANSCRIPT_ROLES),
  text: z.string(),
  harness: singleLine(100).optional(),
  cwd: z.string().min(1).max(4096).optional(),
  threadKey: threadKeySchema.optional(),
  toolName: singleLine(200).optional(),
  at: instantSchema.optional(),
});

export const transcriptReadSchema = z.object({
  fromSeq: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
  fromAt: instantSchema.optional(),
  toAt: instantSchema.optional(),
});

export const transcriptSearchSchema = z.object({
  query: z.string().max(2000),
  limit: z.number().int().min(1).max(200).default(20),
  threadKey: threadKeySchema.optional(),
});

export const addNodeSchema = z.object({
  agentId: agentIdSchema,
  kind: z.enum(TEMPORAL_NODE_KINDS),
  threadKey: threadKeySchema,
  sessionKey: sessionKeySchema.optional(),
  startAt: instantSchema.optional(),
  endAt: instantSchema.optional(),
  source: singleLine(200),
  text: z.string().trim().min(1, 'text must not be empty'),
  childIds: z.array(nodeIdSchema).max(1000).optional(),
  unitIds: z.array(unitIdSchema).max(1000).optional(),
});

export const listNodesSchema = z.object({
  agentId: agentIdSchema,
  threadKey: threadKeySchema.optional(),
  kinds: z.array(z.enum(TEMPORAL_NODE_KINDS)).min(1).optional(),
  roots: z.boolean().optional(),
  since: instantSchema.optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
});

export const summaryFailureSchema = z.object({
  agentId: agentIdSchema,
  sessionKey: sessionKeySchema,
  error: z.string().min(1).max(4000),
  nextAttemptAt: instantSchema.optional(),
});

export const summarizerOutputSchema = z.object({
  text: z.string().trim().min(1, 'the summary must not be empty'),
  source: singleLine(200),
});

export const condenseOptionsSchema = z.object({
  agentId: agentIdSchema,
  threadKey: threadKeySchema,
  threshold: z.number().int().min(1).max(1000).default(8),
  batch: z.number().int().min(2).max(1000).optional(),
});

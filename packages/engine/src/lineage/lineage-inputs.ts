import {
  agentIdSchema,
  lazySchema,
  sessionKeySchema,
  threadKeySchema,
  unitIdSchema,
} from '@cairn/core';
import * as z from 'zod/mini';
import { TEMPORAL_NODE_KINDS, TRANSCRIPT_ROLES } from './lineage-types';

/**
 * Schemas for everything a caller hands the lineage store: hooks, MCP and the
 * CLI pass their input straight through, so nothing is trusted. Written with
 * zod/mini: hooks start a process per event (see core's contracts/schemas.ts).
 */

const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
/** `z.number().int().min(min).max(max)` of classic zod, checks and messages alike. */
const int = (min: number, max?: number) =>
  z.number().check(z.int(), z.gte(min), ...(max === undefined ? [] : [z.lte(max)]));

export { agentIdSchema, sessionKeySchema, threadKeySchema, unitIdSchema };

export const nodeIdSchema = lazySchema(() =>
  z.string().check(z.regex(/^node:[0-9a-f-]{36}$/, 'node ids look like node:<uuid>')),
);
/** An instant as a Date or an ISO string with offset; stored as UTC so text order is time order. */
export const instantSchema = lazySchema(() =>
  z.pipe(
    z
      .pipe(
        z.union([z.date(), z.iso.datetime({ offset: true })]),
        z.transform((value) => new Date(value)),
      )
      .check(z.refine((date) => !Number.isNaN(date.getTime()), 'not a valid instant')),
    z.transform((date) => date.toISOString()),
  ),
);

const singleLine = (max: number) =>
  text(1, max).check(z.refine((value) => !/[\r\n]/.test(value), 'must be a single line'));

export const appendEntrySchema = lazySchema(() =>
  z.object({
    agentId: agentIdSchema,
    sessionKey: sessionKeySchema,
    role: z.enum(TRANSCRIPT_ROLES),
    text: z.string(),
    harness: z.optional(singleLine(100)),
    cwd: z.optional(text(1, 4096)),
    threadKey: z.optional(threadKeySchema),
    toolName: z.optional(singleLine(200)),
    at: z.optional(instantSchema),
  }),
);

export const transcriptReadSchema = lazySchema(() =>
  z.object({
    fromSeq: z.optional(int(1)),
    limit: z.optional(int(1, 10_000)),
    fromAt: z.optional(instantSchema),
    toAt: z.optional(instantSchema),
  }),
);

export const transcriptSearchSchema = lazySchema(() =>
  z.object({
    query: z.string().check(z.maxLength(2000)),
    limit: z._default(int(1, 200), 20),
    threadKey: z.optional(threadKeySchema),
    excludeSessionKey: z.optional(z.string().check(z.maxLength(512))),
  }),
);

export const addNodeSchema = lazySchema(() =>
  z.object({
    agentId: agentIdSchema,
    kind: z.enum(TEMPORAL_NODE_KINDS),
    threadKey: threadKeySchema,
    sessionKey: z.optional(sessionKeySchema),
    startAt: z.optional(instantSchema),
    endAt: z.optional(instantSchema),
    source: singleLine(200),
    text: z.string().check(z.trim(), z.minLength(1, 'text must not be empty')),
    childIds: z.optional(z.array(nodeIdSchema).check(z.maxLength(1000))),
    unitIds: z.optional(z.array(unitIdSchema).check(z.maxLength(1000))),
  }),
);

export const listNodesSchema = lazySchema(() =>
  z.object({
    agentId: agentIdSchema,
    threadKey: z.optional(threadKeySchema),
    /** One run's nodes (the session they summarize or digest). */
    sessionKey: z.optional(sessionKeySchema),
    newestPerSession: z.optional(z.boolean()),
    kinds: z.optional(z.array(z.enum(TEMPORAL_NODE_KINDS)).check(z.minLength(1))),
    roots: z.optional(z.boolean()),
    since: z.optional(instantSchema),
    limit: z.optional(int(1, 10_000)),
    order: z._default(z.enum(['asc', 'desc']), 'asc'),
  }),
);

export const summaryFailureSchema = lazySchema(() =>
  z.object({
    agentId: agentIdSchema,
    sessionKey: sessionKeySchema,
    error: text(1, 4000),
    nextAttemptAt: z.optional(instantSchema),
  }),
);

export const summarizerOutputSchema = lazySchema(() =>
  z.object({
    text: z.string().check(z.trim(), z.minLength(1, 'the summary must not be empty')),
    source: singleLine(200),
  }),
);

export const condenseOptionsSchema = lazySchema(() =>
  z.object({
    agentId: agentIdSchema,
    threadKey: threadKeySchema,
    threshold: z._default(int(1, 1000), 8),
    batch: z.optional(int(2, 1000)),
  }),
);

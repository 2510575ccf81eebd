import { z } from 'zod';
import { CairnError } from '../errors';
import { DEFAULT_RECALL_LIMIT, DEFAULT_RECALL_TIERS } from './retrieval-adapter';

/** Zod schemas for the contract inputs that cross a boundary (CLI, MCP, HTTP, hooks). */

export const memoryGetOptionsSchema = z.strictObject({
  path: z.string().min(1),
  startLine: z.number().int().min(1).default(1),
  lineCount: z.number().int().min(1).optional(),
});

const isoDate = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO date such as 2026-03-01');

export const memorySearchFiltersSchema = z.strictObject({
  category: z.array(z.enum(['preference', 'fact', 'decision', 'entity', 'other'])).optional(),
  kind: z.array(z.enum(['UNIT', 'RAW'])).optional(),
  review: z.array(z.enum(['draft', 'approved', 'deprecated'])).optional(),
  since: isoDate.optional(),
  until: isoDate.optional(),
  path: z.string().max(200).optional(),
  includeDeprecated: z.boolean().optional(),
});

export const memorySearchOptionsSchema = z.strictObject({
  query: z.string().trim().min(1, 'query must not be empty').max(2000),
  limit: z.number().int().min(1).max(100).default(10),
  snippetChars: z.number().int().min(40).max(4000).default(320),
  filters: memorySearchFiltersSchema.optional(),
});

export const memoryTierSchema = z.enum(['hot', 'warm', 'cold']);

export const memoryPoolDefinitionSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'pool ids are 1-64 letters, digits, . _ -'),
  tier: memoryTierSchema,
  path: z.string().min(1),
  roles: z.array(z.string().min(1)).optional(),
  agents: z.array(z.string().min(1)).optional(),
});

export const memoryQuerySchema = z.strictObject({
  agentId: z.string().min(1),
  role: z.string().min(1).optional(),
  query: z.string().max(2000),
  limit: z.number().int().min(1).max(100).default(DEFAULT_RECALL_LIMIT),
  poolIds: z.array(z.string()).optional(),
  tiers: z
    .array(memoryTierSchema)
    .min(1)
    .default([...DEFAULT_RECALL_TIERS]),
  filters: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
});

export type NormalizedMemoryQuery = z.output<typeof memoryQuerySchema>;

/** Describes a zod failure as `key: reason` for one-line error messages. */
export function describeZodIssue(error: z.ZodError): { key: string; reason: string } {
  const issue = error.issues[0];
  if (!issue) return { key: '(value)', reason: 'invalid value' };
  const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '(value)';
  return { key, reason: issue.message };
}

/**
 * Parses an input with a schema, or throws INVALID_INPUT naming the field.
 * `what` names the call for the message, e.g. "search options".
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { key, reason } = describeZodIssue(parsed.error);
  throw new CairnError('INVALID_INPUT', `Invalid ${what}: ${key}: ${reason}`, {
    hint: 'correct the argument and try again; nothing was changed',
    details: { key, reason },
  });
}

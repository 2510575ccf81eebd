import { en } from 'zod/locales';
import * as z from 'zod/mini';
import type * as z4 from 'zod/v4/core';
import { CairnError } from '../errors';
import { UNIT_ID_PATTERN } from '../units/unit-types';
import { THREAD_KEY_PATTERN } from '../workspace/paths';
import { DEFAULT_RECALL_LIMIT, DEFAULT_RECALL_TIERS } from './retrieval-adapter';

/*
 * Zod schemas for the contract inputs that cross a boundary (CLI, MCP, HTTP,
 * hooks). They are written with zod/mini: `cairn search` and the hooks start
 * a process per call, and loading classic zod costs about 14 ms of each start
 * (docs/BENCHMARKS.md), mini about 3 ms. `parseInput` accepts classic and
 * mini schemas alike.
 */

/** An integer of at least `min` and, when given, at most `max` (zod/mini). */
export const intInRange = (min: number, max?: number) =>
  z.int().check(z.gte(min), ...(max === undefined ? [] : [z.lte(max)]));

export const memoryGetOptionsSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().check(z.minLength(1)),
    startLine: z._default(intInRange(1), 1),
    lineCount: z.optional(intInRange(1)),
  }),
);

const isoDate = lazySchema(() =>
  z
    .string()
    .check(
      z.refine(
        (value) => !Number.isNaN(Date.parse(value)),
        'expected an ISO date such as 2026-03-01',
      ),
    ),
);

export const memorySearchFiltersSchema = lazySchema(() =>
  z.strictObject({
    category: z.optional(z.array(z.enum(['preference', 'fact', 'decision', 'entity', 'other']))),
    kind: z.optional(z.array(z.enum(['UNIT', 'RAW']))),
    review: z.optional(z.array(z.enum(['draft', 'approved', 'deprecated']))),
    since: z.optional(isoDate),
    until: z.optional(isoDate),
    path: z.optional(z.string().check(z.maxLength(200))),
    includeDeprecated: z.optional(z.boolean()),
  }),
);

/** A search query: trimmed, 1 to 2000 characters. */
export const searchQuerySchema = lazySchema(() =>
  z.string().check(z.trim(), z.minLength(1, 'query must not be empty'), z.maxLength(2000)),
);

export const memorySearchOptionsSchema = lazySchema(() =>
  z.strictObject({
    query: searchQuerySchema,
    limit: z._default(intInRange(1, 100), 10),
    snippetChars: z._default(intInRange(40, 4000), 320),
    filters: z.optional(memorySearchFiltersSchema),
  }),
);

export const memoryTierSchema = lazySchema(() => z.enum(['hot', 'warm', 'cold']));

const nonEmpty = () => z.string().check(z.minLength(1));

export const memoryPoolDefinitionSchema = lazySchema(() =>
  z.strictObject({
    id: z
      .string()
      .check(
        z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'pool ids are 1-64 letters, digits, . _ -'),
      ),
    tier: memoryTierSchema,
    path: nonEmpty(),
    roles: z.optional(z.array(nonEmpty())),
    agents: z.optional(z.array(nonEmpty())),
  }),
);

export const memoryQuerySchema = lazySchema(() =>
  z.strictObject({
    agentId: nonEmpty(),
    role: z.optional(nonEmpty()),
    query: z.string().check(z.maxLength(2000)),
    limit: z._default(intInRange(1, 100), DEFAULT_RECALL_LIMIT),
    poolIds: z.optional(z.array(z.string())),
    tiers: z._default(z.array(memoryTierSchema).check(z.minLength(1)), [...DEFAULT_RECALL_TIERS]),
    filters: z.optional(z.record(z.string(), z.union([z.string(), z.array(z.string())]))),
  }),
);

export type NormalizedMemoryQuery = z.output<typeof memoryQuerySchema>;

/** Describes a zod failure as `key: reason` for one-line error messages. */
export function describeZodIssue(error: z4.$ZodError): { key: string; reason: string } {
  const issue = error.issues[0];
  if (!issue) return { key: '(value)', reason: 'invalid value' };
  const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '(value)';
  return { key, reason: issue.message };
}

/**
 * A schema built on first use. Building a zod schema costs tens of µs an
 * instance, and a hook process answers one event: a module whose schemas
 * serve different events (or other commands) declares each with this, so a
 * process builds only those it parses with. The result stands for the
 * schema everywhere (parse, composition into other schemas, types).
 */
export function lazySchema<S extends object>(build: () => S): S {
  let built: S | undefined;
  const schema = () => {
    built ??= build();
    return built;
  };
  return new Proxy({} as S, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}

/**
 * Parses an input with a schema, or throws INVALID_INPUT naming the field.
 * `what` names the call for the message, e.g. "search options".
 */
export function parseInput<S extends z4.$ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z4.output<S> {
  const parsed = safeParse(schema, value);
  if (parsed.success) return parsed.data;
  const { key, reason } = describeZodIssue(parsed.error);
  throw new CairnError('INVALID_INPUT', `Invalid ${what}: ${key}: ${reason}`, {
    hint: 'correct the argument and try again; nothing was changed',
    details: { key, reason },
  });
}

/**
 * Parses with any zod schema, classic or mini. Classic zod installs its
 * English messages when it loads; a process that only loaded zod/mini has
 * none, so the first parse installs them (the same messages either way).
 */
export function safeParse<S extends z4.$ZodType>(
  schema: S,
  value: unknown,
): z4.util.SafeParseResult<z4.output<S>> {
  if (!z.config().localeError) z.config(en());
  return z.safeParse(schema, value);
}

/*
 * The keys that name an agent, a session, a thread and a unit, defined once:
 * lifecycle payloads, the lineage store, MCP tool inputs and CLI flags all
 * parse them with these schemas, so one value is accepted or refused the
 * same way wherever it enters. The limits are the widest any surface used
 * to accept (lineage: 256; thread heads and the lineage: 120), so every
 * value already stored stays readable. zod/mini, built on first use: hooks
 * start a process per event (see lazySchema).
 */

/** agentId and sessionKey: 1 to 256 characters, as the lineage store has always accepted. */
export const MAX_KEY_CHARS = 256;
/** Thread keys: `THREAD_KEY_PATTERN`, 1 to 120 characters (a `threads/<key>.md` file name). */
export const MAX_THREAD_KEY_CHARS = 120;

const key = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .check(
      z.minLength(1, `${name} is required`),
      z.maxLength(MAX_KEY_CHARS, `${name} is at most ${MAX_KEY_CHARS} characters`),
    );

export const agentIdSchema = lazySchema(() => key('agentId'));
export const sessionKeySchema = lazySchema(() => key('sessionKey'));

export const threadKeySchema = lazySchema(() =>
  z
    .string({ error: 'threadKey is required' })
    .check(
      z.maxLength(MAX_THREAD_KEY_CHARS, `threadKey is at most ${MAX_THREAD_KEY_CHARS} characters`),
      z.regex(
        THREAD_KEY_PATTERN,
        'threadKey must be lowercase letters, digits, ".", "_" or "-", starting with a letter or digit',
      ),
    ),
);

export const unitIdSchema = lazySchema(() =>
  z.string().check(z.regex(UNIT_ID_PATTERN, 'unit ids look like UNIT:<uuid>')),
);

/** The agentId, or INVALID_INPUT naming `what` (a flag, a field). */
export function checkAgentId(value: unknown, what = 'agentId'): string {
  return parseInput(agentIdSchema, value, what);
}

/** The thread key, or INVALID_INPUT naming `what` (a flag, a field). */
export function checkThreadKey(value: unknown, what = 'threadKey'): string {
  return parseInput(threadKeySchema, value, what);
}

import * as z from 'zod/mini';
import type * as z4 from 'zod/v4/core';
import { CairnError } from '../errors';
import { type ChunkOptions, DEFAULT_CHUNK_OPTIONS } from '../units/chunker';
import type { Embedder } from './embedder';
import { createHashEmbedder } from './hash-embedder';
import { describeZodIssue, safeParse } from './schemas';

/*
 * The pieces each backend's options schema is built from (zod/mini), with
 * the messages the backends have always given, and the one parse that turns
 * a failure into the backend's own error. Options come from code or from
 * `memoryBackendOptions` in a config file, so functions and embedders are
 * accepted as values next to plain JSON.
 */

/** The error one backend raises for a bad option: its code, its message, its hint. */
export type InvalidOption = (key: string, reason: string) => CairnError;

/**
 * The INVALID_INPUT error of backend `id` for a bad option, saying that
 * nothing was changed; `where` tells the user where options are set.
 */
export function invalidBackendOption(
  id: string,
  where = 'in code or in .cairn/config.json',
): InvalidOption {
  return (key, reason) =>
    new CairnError('INVALID_INPUT', `Invalid ${id} option: ${key}: ${reason}`, {
      hint: `fix the ${id} options (${where}); nothing was changed`,
      details: { key, reason },
    });
}

/** An integer of at least `min` (and at most `max`), `fallback` when absent. */
export function integerOption(min: number, fallback: number, max?: number) {
  const message =
    max === undefined
      ? `expected an integer of at least ${min}`
      : `expected an integer from ${min} to ${max}`;
  const checks = [z.gte(min, message), ...(max === undefined ? [] : [z.lte(max, message)])];
  return z._default(z.int({ error: message }).check(...checks), fallback);
}

/** A number from `min` to `max`, `fallback` when absent. */
export function numberOption(min: number, max: number, fallback: number) {
  const message = `expected a number from ${min} to ${max}`;
  return z._default(
    z.number({ error: message }).check(z.gte(min, message), z.lte(max, message)),
    fallback,
  );
}

/** `true` or `false`, `fallback` when absent. */
export function booleanOption(fallback: boolean) {
  return z._default(z.boolean({ error: 'expected true or false' }), fallback);
}

/** One of `values`, `fallback` when absent. */
export function oneOfOption<const T extends readonly [string, ...string[]]>(
  values: T,
  fallback: T[number],
) {
  const message = `expected one of ${values.map((v) => `"${v}"`).join(', ')}`;
  return z._default(z.enum(values, { error: message }), fallback as never);
}

/** A non-empty string (matching `pattern` when given), or absent. */
export function stringOption(pattern?: RegExp) {
  const message = pattern ? `expected a string matching ${pattern}` : 'expected a non-empty string';
  return z.optional(
    z.string({ error: message }).check(
      z.refine((value) => value.trim() !== '', message),
      ...(pattern ? [z.regex(pattern, message)] : []),
    ),
  );
}

/**
 * The `repo` partition of a project in a shared store (LanceDB, Qdrant,
 * Mem0): up to 200 characters without white space, or absent (the backend
 * then uses `defaultProjectRepo`).
 */
export function repoOption() {
  return stringOption(/^[^\s]{1,200}$/);
}

/**
 * RAW chunk sizing for core's chunker, `{ maxTokens?, overlapTokens? }`:
 * integers of at least 16 and 0 (at most `max` when given), `defaults`
 * (core's chunker's) for what is absent.
 */
export function chunkOption(
  defaults: Readonly<Required<ChunkOptions>> = DEFAULT_CHUNK_OPTIONS,
  max?: number,
) {
  return z._default(
    z.object(
      {
        maxTokens: integerOption(16, defaults.maxTokens, max),
        overlapTokens: integerOption(0, defaults.overlapTokens, max),
      },
      { error: 'expected { maxTokens?, overlapTokens? }' },
    ),
    () => ({ ...defaults }),
  );
}

/** A function (a callback, a module loader), or absent. */
export function functionOption<F>() {
  return z.optional(
    z.custom<F>((value) => typeof value === 'function', { error: 'expected a function' }),
  );
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}

/** A copy of an object of string values (credentials, environment), or absent. */
export function stringRecordOption() {
  return z.optional(
    z.pipe(
      z.custom<Record<string, string>>(isStringRecord, {
        error: 'expected an object of string values',
      }),
      z.transform((value) => ({ ...value })),
    ),
  );
}

/**
 * The options every index keeps for the generic code
 * (`MemoryIndexCommonOptions`), as entries of a backend's options schema:
 * `getMaxLines` (at most `maxLines` when given, default 200) and
 * `onWarning`.
 */
export function indexCommonOptions(maxLines?: number) {
  return {
    getMaxLines: integerOption(1, 200, maxLines),
    onWarning: functionOption<(message: string) => void>(),
  };
}

/** Whether `value` is a complete Embedder (id, model, positive integer dimensions, embed). */
export function isEmbedder(value: unknown): value is Embedder {
  const e = value as Partial<Embedder> | undefined;
  return (
    typeof e?.id === 'string' &&
    typeof e.model === 'string' &&
    Number.isInteger(e.dimensions) &&
    e.dimensions! > 0 &&
    typeof e.embed === 'function'
  );
}

export const MIN_HASH_DIMENSIONS = 8;
export const MAX_HASH_DIMENSIONS = 8192;

/**
 * The embedder a backend option names: an Embedder as given (from code),
 * `{ id: 'hash', dimensions? }` (from JSON, 8 to 8192, default 256), or
 * absent: the backend then uses the hash embedder (`embedderOrDefault`).
 */
export function embedderOption() {
  return z.optional(
    z.pipe(
      z.unknown(),
      z.transform((value, ctx): Embedder => {
        if (value === undefined) return createHashEmbedder();
        if (isEmbedder(value)) return value;
        const spec = value as { id?: unknown; dimensions?: unknown } | null;
        if (!spec || typeof spec !== 'object' || spec.id !== 'hash') {
          ctx.issues.push({
            code: 'custom',
            input: value,
            message: 'expected an Embedder (id, model, dimensions, embed) or { id: "hash" }',
          });
          return z.NEVER;
        }
        const { dimensions = 256 } = spec;
        const ok =
          typeof dimensions === 'number' &&
          Number.isInteger(dimensions) &&
          dimensions >= MIN_HASH_DIMENSIONS &&
          dimensions <= MAX_HASH_DIMENSIONS;
        if (!ok) {
          ctx.issues.push({
            code: 'custom',
            input: dimensions,
            path: ['dimensions'],
            message: `expected an integer from ${MIN_HASH_DIMENSIONS} to ${MAX_HASH_DIMENSIONS}`,
          });
          return z.NEVER;
        }
        return createHashEmbedder({ dimensions: dimensions as number });
      }),
    ),
  );
}

/** The parsed embedder option, or the hash embedder when none was given. */
export function embedderOrDefault(embedder: Embedder | undefined): Embedder {
  return embedder ?? createHashEmbedder();
}

/**
 * Parses a backend's options with its schema (a strict object). A failure
 * throws the backend's own error from `invalid`, naming the option: an
 * unknown key is `unknown option`, a bad value says what was expected.
 */
export function parseBackendOptions<S extends z4.$ZodType>(
  schema: S,
  input: unknown,
  invalid: InvalidOption,
): z4.output<S> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid('(options)', 'expected an object');
  }
  const parsed = safeParse(schema, input);
  if (parsed.success) return parsed.data;
  const unknownKeys = parsed.error.issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknownKeys) {
    throw invalid(
      [...unknownKeys.path, unknownKeys.keys[0]].map(String).join('.'),
      'unknown option',
    );
  }
  const { key, reason } = describeZodIssue(parsed.error);
  throw invalid(key, reason);
}

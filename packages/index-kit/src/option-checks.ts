import { type CairnError, createHashEmbedder, type Embedder } from '@cairn/core';

/** The error one backend raises for a bad option: its code, its message, its hint. */
export type InvalidOption = (key: string, reason: string) => CairnError;

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

/**
 * Option checks shared by the backends' option parsers (code or JSON
 * settings); each failure is the backend's own error from `invalid`.
 */
export function optionChecks(invalid: InvalidOption) {
  /** An integer of at least `min`; `fallback` when absent. */
  function integer(value: unknown, key: string, min: number, fallback: number): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw invalid(key, `expected an integer of at least ${min}`);
    }
    return value;
  }

  function optionalFunction<T>(value: unknown, key: string): T | undefined {
    if (value !== undefined && typeof value !== 'function') {
      throw invalid(key, 'expected a function');
    }
    return value as T | undefined;
  }

  /** A copy of an object of string values (credentials, environment), or undefined when absent. */
  function stringRecord(value: unknown, key: string): Record<string, string> | undefined {
    if (value === undefined) return undefined;
    const ok =
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.values(value).every((v) => typeof v === 'string');
    if (!ok) throw invalid(key, 'expected an object of string values');
    return { ...(value as Record<string, string>) };
  }

  /** An Embedder as given, `{ id: 'hash', dimensions? }` from JSON, or the hash embedder when absent. */
  function embedder(value: unknown): Embedder {
    if (value === undefined) return createHashEmbedder();
    if (isEmbedder(value)) return value;
    const spec = value as { id?: unknown; dimensions?: unknown };
    if (spec && typeof spec === 'object' && spec.id === 'hash') {
      const dimensions = integer(spec.dimensions, 'embedder.dimensions', 8, 256);
      if (dimensions > 8192) throw invalid('embedder.dimensions', 'expected at most 8192');
      return createHashEmbedder({ dimensions });
    }
    throw invalid(
      'embedder',
      'expected an Embedder (id, model, dimensions, embed) or { id: "hash" }',
    );
  }

  return { integer, optionalFunction, stringRecord, embedder };
}

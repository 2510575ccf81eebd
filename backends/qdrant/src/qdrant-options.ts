import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { CairnError, type ChunkOptions, createHashEmbedder, type Embedder } from '@cairn/core';
import type { QdrantModuleLoader } from './load-qdrant';

export const DEFAULT_QDRANT_URL = 'http://localhost:6333';
export const DEFAULT_COLLECTION_PREFIX = 'cairn';
export const DEFAULT_NAMESPACE = 'default';
/** Cosine similarity below which a dense hit is noise (same floor as the lancedb adapter). */
export const DEFAULT_MIN_SIMILARITY = 0.2;

export interface QdrantBackendOptions {
  /** The server, e.g. `http://localhost:6333` or a cluster URL. Default `$QDRANT_URL`, else localhost. */
  url?: string;
  /** API key of a secured server or Qdrant Cloud. Default `$QDRANT_API_KEY`. */
  apiKey?: string;
  /** One collection per namespace: `<collectionPrefix>_<namespace>`. Default `default`. */
  namespace?: string;
  /** Default `cairn`. */
  collectionPrefix?: string;
  /**
   * The `repo` payload key partitioning one collection between projects.
   * Default: the project folder name plus a short hash of its path; set the
   * same value on every machine that should share one index.
   */
  repo?: string;
  /** The `security_scope` payload key. Default `project`. */
  securityScope?: string;
  /** The embedder, or `{ id: 'hash', dimensions }` from JSON settings. Default: hash, 256. */
  embedder?: Embedder | { id: 'hash'; dimensions?: number };
  /** Also store sparse keyword vectors (Qdrant IDF modifier) and fuse them with the dense arm. Default true. */
  sparse?: boolean;
  /** Dense hits below this cosine similarity are dropped. Default 0.2. */
  minSimilarity?: number;
  /** RAW chunk sizing (core's chunker). */
  chunk?: ChunkOptions;
  /** Per-request timeout in milliseconds. Default 10,000. */
  timeoutMs?: number;
  /** Ask the server for its version and warn on a mismatch. Default false (one less request per process). */
  checkCompatibility?: boolean;
  /** Most lines one `get` returns (file storage). Default 200. */
  getMaxLines?: number;
  /** Told once about each distinct warning (fallbacks). */
  onWarning?: (message: string) => void;
  /** Replaces the lazy import of @qdrant/js-client-rest (tests simulate a missing install). */
  loadClient?: QdrantModuleLoader;
}

export interface ResolvedQdrantOptions {
  url: string;
  apiKey: string | undefined;
  namespace: string;
  collection: string;
  repo: string | undefined;
  securityScope: string;
  embedder: Embedder;
  sparse: boolean;
  minSimilarity: number;
  chunk: Required<ChunkOptions>;
  timeoutMs: number;
  checkCompatibility: boolean;
  getMaxLines: number;
  onWarning: ((message: string) => void) | undefined;
  loadClient: QdrantModuleLoader | undefined;
}

function invalid(key: string, reason: string): CairnError {
  return new CairnError('INVALID_INPUT', `Invalid qdrant option: ${key}: ${reason}`, {
    hint: 'fix the qdrant options (in code or in .cairn/config.json); nothing was changed',
    details: { key, reason },
  });
}

type Check<T> = (value: unknown, key: string) => T;

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
const text =
  (pattern?: RegExp): Check<string> =>
  (value, key) => {
    if (typeof value !== 'string' || value.trim() === '' || (pattern && !pattern.test(value))) {
      throw invalid(
        key,
        pattern ? `expected a string matching ${pattern}` : 'expected a non-empty string',
      );
    }
    return value;
  };
const url: Check<string> = (value, key) => {
  const raw = text()(value, key);
  if (!/^https?:\/\/[^\s/]+/.test(raw)) throw invalid(key, 'expected an http(s):// URL');
  return raw.replace(/\/+$/, '');
};
const int =
  (min: number, max: number): Check<number> =>
  (value, key) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw invalid(key, `expected an integer from ${min} to ${max}`);
    }
    return value;
  };
const bool: Check<boolean> = (value, key) => {
  if (typeof value !== 'boolean') throw invalid(key, 'expected true or false');
  return value;
};
const similarity: Check<number> = (value, key) => {
  if (typeof value !== 'number' || !(value >= -1 && value <= 1)) {
    throw invalid(key, 'expected a number from -1 to 1');
  }
  return value;
};
const fn = <T>(value: unknown, key: string): T => {
  if (typeof value !== 'function') throw invalid(key, 'expected a function');
  return value as T;
};

function opt<T>(raw: Record<string, unknown>, key: string, check: Check<T>, fallback: T): T {
  return raw[key] === undefined ? fallback : check(raw[key], key);
}

function embedderOf(value: unknown): Embedder {
  if (value === undefined) return createHashEmbedder();
  const e = value as Partial<Embedder> & { dimensions?: unknown };
  const complete =
    typeof e?.embed === 'function' && typeof e.id === 'string' && typeof e.model === 'string';
  if (complete && Number.isInteger(e.dimensions) && (e.dimensions as number) > 0) {
    return value as Embedder;
  }
  if (e && typeof e === 'object' && e.id === 'hash' && !complete) {
    const dimensions =
      e.dimensions === undefined ? 256 : int(8, 8192)(e.dimensions, 'embedder.dimensions');
    return createHashEmbedder({ dimensions });
  }
  throw invalid(
    'embedder',
    'expected an Embedder (id, model, dimensions, embed) or { id: "hash" }',
  );
}

function chunkOf(value: unknown): Required<ChunkOptions> {
  if (value !== undefined && (typeof value !== 'object' || value === null)) {
    throw invalid('chunk', 'expected { maxTokens?, overlapTokens? }');
  }
  const chunk = (value ?? {}) as Record<string, unknown>;
  return {
    maxTokens: opt(chunk, 'maxTokens', int(16, 100_000), 400),
    overlapTokens: opt(chunk, 'overlapTokens', int(0, 100_000), 60),
  };
}

const KNOWN = new Set([
  'url',
  'apiKey',
  'namespace',
  'collectionPrefix',
  'repo',
  'securityScope',
  'embedder',
  'sparse',
  'minSimilarity',
  'chunk',
  'timeoutMs',
  'checkCompatibility',
  'getMaxLines',
  'onWarning',
  'loadClient',
]);

/**
 * Validates options (from code or JSON settings); unknown keys and bad
 * values throw INVALID_INPUT. `env` supplies QDRANT_URL / QDRANT_API_KEY.
 */
export function resolveQdrantOptions(
  input: unknown = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedQdrantOptions {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid('(options)', 'expected an object');
  }
  const raw = input as Record<string, unknown>;
  const unknownKey = Object.keys(raw).find((key) => !KNOWN.has(key));
  if (unknownKey) throw invalid(unknownKey, 'unknown option');
  const namespace = opt(raw, 'namespace', text(NAME), DEFAULT_NAMESPACE);
  const prefix = opt(raw, 'collectionPrefix', text(NAME), DEFAULT_COLLECTION_PREFIX);
  return {
    url: opt(
      raw,
      'url',
      url,
      env.QDRANT_URL ? url(env.QDRANT_URL, 'QDRANT_URL') : DEFAULT_QDRANT_URL,
    ),
    apiKey: opt<string | undefined>(raw, 'apiKey', text(), env.QDRANT_API_KEY || undefined),
    namespace,
    collection: `${prefix}_${namespace}`,
    repo: opt<string | undefined>(raw, 'repo', text(/^[^\s]{1,200}$/), undefined),
    securityScope: opt(raw, 'securityScope', text(NAME), 'project'),
    embedder: embedderOf(raw.embedder),
    sparse: opt(raw, 'sparse', bool, true),
    minSimilarity: opt(raw, 'minSimilarity', similarity, DEFAULT_MIN_SIMILARITY),
    chunk: chunkOf(raw.chunk),
    timeoutMs: opt(raw, 'timeoutMs', int(100, 600_000), 10_000),
    checkCompatibility: opt(raw, 'checkCompatibility', bool, false),
    getMaxLines: opt(raw, 'getMaxLines', int(1, 100_000), 200),
    onWarning: opt<((message: string) => void) | undefined>(raw, 'onWarning', fn, undefined),
    loadClient: opt<QdrantModuleLoader | undefined>(raw, 'loadClient', fn, undefined),
  };
}

/** The default `repo`: the folder name and a hash of the absolute path (two checkouts never collide). */
export function defaultRepo(rootDir: string): string {
  const root = resolve(rootDir);
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 10);
  return `${basename(root) || 'root'}-${hash}`;
}

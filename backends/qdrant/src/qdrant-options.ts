import {
  booleanOption,
  type ChunkOptions,
  chunkOption,
  DEFAULT_CHUNK_OPTIONS,
  defaultProjectRepo,
  type Embedder,
  embedderOption,
  embedderOrDefault,
  functionOption,
  indexCommonOptions,
  integerOption,
  invalidBackendOption,
  lazySchema,
  numberOption,
  parseBackendOptions,
  type ResolvedIndexCommonOptions,
  repoOption,
  stringOption,
} from '@cairn/core';
import * as z from 'zod/mini';
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

export interface ResolvedQdrantOptions extends ResolvedIndexCommonOptions {
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
  loadClient: QdrantModuleLoader | undefined;
}

const invalid = invalidBackendOption('qdrant');

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
const URL_PATTERN = /^https?:\/\/[^\s/]+/;

/** An http(s) URL without its trailing slashes. */
const urlSchema = () =>
  z.pipe(
    z.string({ error: 'expected a non-empty string' }).check(
      z.refine((value) => value.trim() !== '', 'expected a non-empty string'),
      z.regex(URL_PATTERN, 'expected an http(s):// URL'),
    ),
    z.transform((value) => value.replace(/\/+$/, '')),
  );

/** Qdrant's options (zod/mini, built on first use); unknown keys are refused. */
export const qdrantOptionsSchema = lazySchema(() =>
  z.strictObject({
    url: z.optional(urlSchema()),
    apiKey: stringOption(),
    namespace: z._default(stringOption(NAME), DEFAULT_NAMESPACE),
    collectionPrefix: z._default(stringOption(NAME), DEFAULT_COLLECTION_PREFIX),
    repo: repoOption(),
    securityScope: z._default(stringOption(NAME), 'project'),
    embedder: embedderOption(),
    sparse: booleanOption(true),
    minSimilarity: numberOption(-1, 1, DEFAULT_MIN_SIMILARITY),
    chunk: chunkOption(DEFAULT_CHUNK_OPTIONS, 100_000),
    timeoutMs: integerOption(100, 10_000, 600_000),
    checkCompatibility: booleanOption(false),
    ...indexCommonOptions(100_000),
    loadClient: functionOption<QdrantModuleLoader>(),
  }),
);

/** `QDRANT_URL` from the environment, checked like the option. */
function urlFromEnv(env: NodeJS.ProcessEnv): string {
  if (!env.QDRANT_URL) return DEFAULT_QDRANT_URL;
  return parseBackendOptions(
    z.object({ QDRANT_URL: urlSchema() }),
    { QDRANT_URL: env.QDRANT_URL },
    invalid,
  ).QDRANT_URL;
}

/**
 * Validates options (from code or JSON settings); unknown keys and bad
 * values throw INVALID_INPUT. `env` supplies QDRANT_URL / QDRANT_API_KEY.
 */
export function resolveQdrantOptions(
  input: unknown = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedQdrantOptions {
  const { collectionPrefix, ...options } = parseBackendOptions(qdrantOptionsSchema, input, invalid);
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const { repo, onWarning, loadClient } = options;
  return {
    ...options,
    url: options.url ?? urlFromEnv(env),
    apiKey: options.apiKey ?? (env.QDRANT_API_KEY || undefined),
    namespace,
    collection: `${collectionPrefix ?? DEFAULT_COLLECTION_PREFIX}_${namespace}`,
    repo,
    securityScope: options.securityScope ?? 'project',
    embedder: embedderOrDefault(options.embedder),
    onWarning,
    loadClient,
  };
}

/** The default `repo`: the folder name and a hash of the absolute path (two checkouts never collide). */
export const defaultRepo = (rootDir: string): string => defaultProjectRepo(rootDir);

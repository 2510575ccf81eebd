import { isAbsolute, resolve } from 'node:path';
import {
  type ChunkOptions,
  cairnIndexPath,
  chunkOption,
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
  oneOfOption,
  parseBackendOptions,
  type ResolvedIndexCommonOptions,
  repoOption,
  stringOption,
  stringRecordOption,
} from '@cairn/core';
import * as z from 'zod/mini';
import type { LancedbModuleLoader } from './load-lancedb';

/** How recall ranks: both arms fused (default), vectors only, or full text only. */
export type LancedbSearchMode = 'hybrid' | 'vector' | 'keyword';

/** The default row count at which an IVF_PQ vector index is built (below it, exact search is fast). */
export const DEFAULT_VECTOR_INDEX_THRESHOLD = 50_000;
/** IVF_PQ trains 256 PQ centroids, so it needs at least this many rows. */
export const MIN_VECTOR_INDEX_THRESHOLD = 256;
/** Cosine similarity below which a vector hit is noise (tuned on the hash embedder; see README). */
export const DEFAULT_MIN_SIMILARITY = 0.2;
export const DEFAULT_TABLE_NAME = 'cairn_chunks';
export const DEFAULT_NAMESPACE = 'default';
/** The folder under `.cairn/index/` of the default local database. */
export const LANCEDB_INDEX_DIR = 'lancedb';

export interface LancedbBackendOptions {
  /**
   * A LanceDB URI: a local folder (absolute, or relative to the project
   * root) or object storage (`s3://bucket/prefix`, `gs://…`, `az://…`).
   * Default `<root>/.cairn/index/lancedb`.
   */
  uri?: string;
  /** Passed to LanceDB as-is (credentials, region, endpoint for object storage). */
  storageOptions?: Record<string, string>;
  /** Chunk table name; the file-state table is `<tableName>_files`. Default `cairn_chunks`. */
  tableName?: string;
  /**
   * The project's partition of the table: every row carries it and every
   * search, refresh and delete filters on it, so projects can share one
   * table. Default: the project folder name plus a short hash of its path.
   */
  repo?: string;
  /**
   * Seed 004 §6.2 `namespace_id`: with `repo`, the partition every read,
   * write and delete keeps to. Default: the `memory.namespace` setting
   * (the engine passes it), else `default`.
   */
  namespace?: string;
  /**
   * The embedder, or `{ id: 'hash', dimensions }` from JSON settings.
   * Default: the offline hash embedder (256 dimensions).
   */
  embedder?: Embedder | { id: 'hash'; dimensions?: number };
  /** Default `hybrid`: vector and full-text arms fused by reciprocal rank. */
  searchMode?: LancedbSearchMode;
  /** Rows at which the IVF_PQ vector index is built. Default 50,000, minimum 256. */
  vectorIndexThreshold?: number;
  /** When the stored embedder differs from this one: drop and rebuild (default) or refuse. */
  onEmbedderChange?: 'rebuild' | 'error';
  /** RAW chunk sizing (core's chunker); a table built with other values is rebuilt. */
  chunk?: ChunkOptions;
  /** Seconds between checks for other writers; 0 (default) always sees the latest version. */
  readConsistencyInterval?: number;
  /** The `k` of reciprocal rank fusion. Default 60. */
  rrfK?: number;
  /** Vector hits below this cosine similarity are dropped (so nonsense finds nothing). Default 0.2. */
  minSimilarity?: number;
  /** Most lines one `get` returns (file storage). Default 200. */
  getMaxLines?: number;
  /** Told once about each distinct warning (fallbacks, rebuilds). */
  onWarning?: (message: string) => void;
  /** Replaces the lazy import of the optional packages (tests simulate a missing install). */
  loadModules?: LancedbModuleLoader;
}

/** Options after validation, with defaults applied. */
export interface ResolvedLancedbOptions extends ResolvedIndexCommonOptions {
  uri: string | undefined;
  storageOptions: Record<string, string> | undefined;
  tableName: string;
  repo: string | undefined;
  namespace: string;
  embedder: Embedder;
  searchMode: LancedbSearchMode;
  vectorIndexThreshold: number;
  onEmbedderChange: 'rebuild' | 'error';
  chunk: Required<ChunkOptions>;
  readConsistencyInterval: number;
  rrfK: number;
  minSimilarity: number;
  loadModules: LancedbModuleLoader | undefined;
}

const invalid = invalidBackendOption('lancedb');

/** LanceDB's options (zod/mini, built on first use); unknown keys are refused. */
export const lancedbOptionsSchema = lazySchema(() =>
  z.strictObject({
    uri: stringOption(),
    storageOptions: stringRecordOption(),
    tableName: z._default(stringOption(/^[A-Za-z][A-Za-z0-9_]{0,62}$/), DEFAULT_TABLE_NAME),
    repo: repoOption(),
    namespace: z._default(stringOption(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/), DEFAULT_NAMESPACE),
    embedder: embedderOption(),
    searchMode: oneOfOption(['hybrid', 'vector', 'keyword'], 'hybrid'),
    vectorIndexThreshold: integerOption(MIN_VECTOR_INDEX_THRESHOLD, DEFAULT_VECTOR_INDEX_THRESHOLD),
    onEmbedderChange: oneOfOption(['rebuild', 'error'], 'rebuild'),
    chunk: chunkOption(),
    readConsistencyInterval: integerOption(0, 0),
    rrfK: integerOption(1, 60),
    minSimilarity: numberOption(-1, 1, DEFAULT_MIN_SIMILARITY),
    ...indexCommonOptions(),
    loadModules: functionOption<LancedbModuleLoader>(),
  }),
);

/** Validates options (from code or JSON settings); unknown keys and bad values throw INVALID_INPUT. */
export function resolveLancedbOptions(input: unknown = {}): ResolvedLancedbOptions {
  const options = parseBackendOptions(lancedbOptionsSchema, input, invalid);
  const { uri, storageOptions, repo, onWarning, loadModules } = options;
  return {
    ...options,
    uri,
    repo,
    storageOptions,
    tableName: options.tableName ?? DEFAULT_TABLE_NAME,
    namespace: options.namespace ?? DEFAULT_NAMESPACE,
    embedder: embedderOrDefault(options.embedder),
    onWarning,
    loadModules,
  };
}

/** A URI with a scheme (`s3://`, `gs://`, `az://`, `db://`, `memory://`) is used as-is. */
export function isRemoteUri(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(uri);
}

/** The default `repo`: the folder name and a hash of the absolute path (two checkouts never collide). */
export const defaultRepo = (rootDir: string): string => defaultProjectRepo(rootDir);

/** The database URI for a project: the configured one, or `<root>/.cairn/index/lancedb`. */
export function databaseUri(rootDir: string, uri: string | undefined, dataDir?: string): string {
  if (!uri) return resolve(dataDir ?? cairnIndexPath(rootDir), LANCEDB_INDEX_DIR);
  if (isRemoteUri(uri)) return uri;
  return isAbsolute(uri) ? uri : resolve(rootDir, uri);
}

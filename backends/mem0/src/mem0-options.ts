import { isAbsolute, join, resolve } from 'node:path';
import {
  booleanOption,
  CairnError,
  type ChunkOptions,
  cairnIndexPath,
  chunkOption,
  type Embedder,
  embedderOption,
  embedderOrDefault,
  functionOption,
  indexCommonOptions,
  lazySchema,
  numberOption,
  parseBackendOptions,
  type ResolvedIndexCommonOptions,
  repoOption,
} from '@cairn/core';
import * as z from 'zod/mini';
import type { Mem0ModuleLoader } from './load-mem0';

export type Mem0Mode = 'oss' | 'platform';

/** Mem0's entity ids: every mirrored entry carries them and every search is narrowed to them. */
export interface Mem0Scope {
  userId?: string;
  agentId?: string;
  runId?: string;
}

export interface Mem0BackendOptions {
  /** `oss` (default): mem0ai/oss in-process. `platform`: the hosted Mem0 API through MemoryClient. */
  mode?: Mem0Mode;
  /** The embedder (OSS mode), or `{ id: 'hash', dimensions }` from JSON settings. Default: hash, 256. */
  embedder?: Embedder | { id: 'hash'; dimensions?: number };
  /**
   * OSS vector store, passed to Mem0 as `{ provider, config }`. Default `memory`
   * (Mem0's SQLite store) at `<root>/.cairn/index/mem0/vectors-<embedder>.db`;
   * `qdrant` takes `{ url, apiKey?, collectionName, ... }`.
   */
  vectorStore?: { provider: string; config?: Record<string, unknown> };
  /** Entity scoping for adds and searches. Default `{ userId: 'cairn' }`. */
  scope?: Mem0Scope;
  /** Kept in every entry's metadata and filtered on: one Mem0 store can hold many projects. Default: the root folder name. */
  namespace?: string;
  /**
   * Seed 004 §6.3 `repo`, kept in every entry's metadata and filtered on
   * with the namespace, so two checkouts sharing a store and a namespace
   * never see each other's entries. Default: the folder name plus a short
   * hash of its path (as Qdrant's); set the same value on every machine
   * that should share one store.
   */
  repo?: string;
  /** Minimum cosine similarity of a hit (Mem0's `threshold`). Default 0.2. */
  threshold?: number;
  /** Let Mem0 extract facts with an LLM on add (needs `llm`). Default false: units are stored verbatim. */
  infer?: boolean;
  /** Mem0's LLM config `{ provider, config }`; only used when `infer` is true. */
  llm?: { provider: string; config?: Record<string, unknown> };
  /** Mem0's anonymous telemetry. Default false (MEM0_TELEMETRY=false is set before Mem0 loads). */
  telemetry?: boolean;
  /** Platform mode: name of the env variable holding the API key. Default `MEM0_API_KEY`. */
  apiKeyEnv?: string;
  /** Platform mode: API host. Default `https://api.mem0.ai`. */
  host?: string;
  /** Where Mem0's own files go (MEM0_DIR, history). Default `<root>/.cairn/index/mem0`. */
  dataDir?: string;
  /**
   * RAW chunk sizing (core's chunker). Default 100 tokens with 15 of overlap:
   * Mem0 scores whole entries by vector, so a short note buried in a long
   * chunk would not be found.
   */
  chunk?: ChunkOptions;
  /** Mirror the workspace into Mem0 right after `write` (default true); search always syncs first. */
  syncOnWrite?: boolean;
  /** Most lines one `get` returns (file storage). Default 200. */
  getMaxLines?: number;
  /** Told once about each distinct warning (fallbacks, mirror failures). */
  onWarning?: (message: string) => void;
  /** Replaces the lazy import of mem0ai (tests simulate a missing install). */
  loadModules?: Mem0ModuleLoader;
}

export interface ResolvedMem0Options extends ResolvedIndexCommonOptions {
  mode: Mem0Mode;
  embedder: Embedder;
  vectorStore: { provider: string; config: Record<string, unknown> } | undefined;
  scope: Mem0Scope;
  namespace: string | undefined;
  repo: string | undefined;
  threshold: number;
  infer: boolean;
  llm: { provider: string; config: Record<string, unknown> } | undefined;
  telemetry: boolean;
  apiKeyEnv: string;
  host: string | undefined;
  dataDir: string | undefined;
  chunk: Required<ChunkOptions>;
  syncOnWrite: boolean;
  loadModules: Mem0ModuleLoader | undefined;
}

export const DEFAULT_SCOPE: Mem0Scope = { userId: 'cairn' };
export const DEFAULT_THRESHOLD = 0.2;
export const DEFAULT_CHUNK: Required<ChunkOptions> = { maxTokens: 100, overlapTokens: 15 };
export const DEFAULT_API_KEY_ENV = 'MEM0_API_KEY';
/** The folder under `.cairn/index/` of Mem0's files. */
export const MEM0_INDEX_DIR = 'mem0';

function invalid(key: string, reason: string): CairnError {
  return new CairnError('INVALID_CONFIG', `Invalid mem0 option "${key}": ${reason}`, {
    hint: 'fix memoryBackendOptions (or the adapter options) for mem0; see backends/mem0/README.md',
    details: { key, reason },
  });
}

/** Mem0 rejects ids with whitespace; so does this, before anything is written. */
const ENTITY_ID = /^[^\s]{1,200}$/;

const text = (pattern = ENTITY_ID) =>
  z.optional(
    z
      .string({ error: `expected a string matching ${pattern}` })
      .check(z.regex(pattern, `expected a string matching ${pattern}`)),
  );
const PROVIDER = 'expected { provider: string, config?: object }';
const provider = () =>
  z.optional(
    z.pipe(
      z.object(
        {
          provider: z.string({ error: PROVIDER }).check(z.minLength(1, PROVIDER)),
          config: z.optional(z.record(z.string(), z.unknown(), { error: 'expected an object' })),
        },
        { error: PROVIDER },
      ),
      z.transform(({ provider, config }) => ({ provider, config: { ...(config ?? {}) } })),
    ),
  );

/** Mem0's options (zod/mini, built on first use); unknown keys are refused. */
export const mem0OptionsSchema = lazySchema(() =>
  z.strictObject({
    mode: z._default(z.enum(['oss', 'platform'], { error: 'expected "oss" or "platform"' }), 'oss'),
    embedder: embedderOption(),
    vectorStore: provider(),
    scope: z.optional(
      z.strictObject(
        { userId: text(), agentId: text(), runId: text() },
        { error: 'expected { userId?, agentId?, runId? }' },
      ),
    ),
    namespace: text(),
    repo: repoOption(),
    threshold: numberOption(0, 1, DEFAULT_THRESHOLD),
    infer: booleanOption(false),
    llm: provider(),
    telemetry: booleanOption(false),
    apiKeyEnv: z._default(text(/^[A-Za-z_][A-Za-z0-9_]*$/), DEFAULT_API_KEY_ENV),
    host: text(/^https?:\/\/\S+$/),
    dataDir: text(/^.+$/),
    chunk: chunkOption(DEFAULT_CHUNK),
    syncOnWrite: booleanOption(true),
    ...indexCommonOptions(),
    loadModules: functionOption<Mem0ModuleLoader>(),
  }),
);

/** An unknown key inside `scope` names the keys there are. */
function invalidOption(key: string, reason: string): CairnError {
  return key.startsWith('scope.') && reason === 'unknown option'
    ? invalid(key, 'unknown key (use userId, agentId or runId)')
    : invalid(key, reason);
}

function scopeOf(scope: Mem0Scope | undefined): Mem0Scope {
  if (scope === undefined) return DEFAULT_SCOPE;
  const ids = Object.fromEntries(Object.entries(scope).filter(([, id]) => id)) as Mem0Scope;
  if (!ids.userId && !ids.agentId && !ids.runId) {
    throw invalid('scope', 'Mem0 needs at least one of userId, agentId, runId');
  }
  return ids;
}

/** Validates options from code or JSON settings; unknown keys and bad values throw INVALID_CONFIG. */
export function resolveMem0Options(input: unknown = {}): ResolvedMem0Options {
  const options = parseBackendOptions(mem0OptionsSchema, input, invalidOption);
  if (options.infer && !options.llm && options.mode === 'oss') {
    throw invalid(
      'infer',
      'inference needs an `llm` ({ provider, config }); leave infer off to store units verbatim',
    );
  }
  const { vectorStore, namespace, repo, llm, host, dataDir, onWarning, loadModules } = options;
  return {
    ...options,
    embedder: embedderOrDefault(options.embedder),
    vectorStore,
    scope: scopeOf(options.scope),
    namespace,
    repo,
    llm,
    apiKeyEnv: options.apiKeyEnv ?? DEFAULT_API_KEY_ENV,
    host,
    dataDir,
    onWarning,
    loadModules,
  };
}

/** Mem0's folder for a project: the configured one (relative to the root), or `.cairn/index/mem0`. */
export function mem0DataDir(
  rootDir: string,
  options: Pick<ResolvedMem0Options, 'dataDir'>,
): string {
  if (!options.dataDir) return join(cairnIndexPath(rootDir), MEM0_INDEX_DIR);
  return isAbsolute(options.dataDir) ? options.dataDir : resolve(rootDir, options.dataDir);
}

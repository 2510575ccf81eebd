import { isAbsolute, join, resolve } from 'node:path';
import { CairnError, type ChunkOptions, cairnIndexPath, type Embedder } from '@cairn/core';
import { optionChecks } from '@cairn/index-kit';
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

export interface ResolvedMem0Options {
  mode: Mem0Mode;
  embedder: Embedder;
  vectorStore: { provider: string; config: Record<string, unknown> } | undefined;
  scope: Mem0Scope;
  namespace: string | undefined;
  threshold: number;
  infer: boolean;
  llm: { provider: string; config: Record<string, unknown> } | undefined;
  telemetry: boolean;
  apiKeyEnv: string;
  host: string | undefined;
  dataDir: string | undefined;
  chunk: Required<ChunkOptions>;
  syncOnWrite: boolean;
  getMaxLines: number;
  onWarning: ((message: string) => void) | undefined;
  loadModules: Mem0ModuleLoader | undefined;
}

export const DEFAULT_SCOPE: Mem0Scope = { userId: 'cairn' };
export const DEFAULT_THRESHOLD = 0.2;
export const DEFAULT_CHUNK: Required<ChunkOptions> = { maxTokens: 100, overlapTokens: 15 };
export const DEFAULT_API_KEY_ENV = 'MEM0_API_KEY';
/** The folder under `.cairn/index/` of Mem0's files. */
export const MEM0_INDEX_DIR = 'mem0';

const KNOWN_KEYS = new Set<string>([
  'mode',
  'embedder',
  'vectorStore',
  'scope',
  'namespace',
  'threshold',
  'infer',
  'llm',
  'telemetry',
  'apiKeyEnv',
  'host',
  'dataDir',
  'chunk',
  'syncOnWrite',
  'getMaxLines',
  'onWarning',
  'loadModules',
]);

function invalid(key: string, reason: string): CairnError {
  return new CairnError('INVALID_CONFIG', `Invalid mem0 option "${key}": ${reason}`, {
    hint: 'fix memoryBackendOptions (or the adapter options) for mem0; see backends/mem0/README.md',
    details: { key, reason },
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const { integer, optionalFunction, embedder: embedderOf } = optionChecks(invalid);

function flag(value: unknown, key: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalid(key, 'expected true or false');
  return value;
}

/** Mem0 rejects ids with whitespace; so does this, before anything is written. */
const ENTITY_ID = /^[^\s]{1,200}$/;

function text(value: unknown, key: string, pattern = ENTITY_ID): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw invalid(key, `expected a string matching ${pattern}`);
  }
  return value;
}

function scopeOf(value: unknown): Mem0Scope {
  if (value === undefined) return DEFAULT_SCOPE;
  if (!isObject(value)) throw invalid('scope', 'expected { userId?, agentId?, runId? }');
  const extra = Object.keys(value).find((k) => !['userId', 'agentId', 'runId'].includes(k));
  if (extra) throw invalid(`scope.${extra}`, 'unknown key (use userId, agentId or runId)');
  const scope: Mem0Scope = {};
  for (const key of ['userId', 'agentId', 'runId'] as const) {
    const id = text(value[key], `scope.${key}`);
    if (id) scope[key] = id;
  }
  if (!scope.userId && !scope.agentId && !scope.runId) {
    throw invalid('scope', 'Mem0 needs at least one of userId, agentId, runId');
  }
  return scope;
}

function providerOf(value: unknown, key: string) {
  if (value === undefined) return undefined;
  if (!isObject(value) || typeof value.provider !== 'string' || value.provider === '') {
    throw invalid(key, 'expected { provider: string, config?: object }');
  }
  if (value.config !== undefined && !isObject(value.config)) {
    throw invalid(`${key}.config`, 'expected an object');
  }
  return { provider: value.provider, config: { ...((value.config as object) ?? {}) } };
}

function chunkOf(value: unknown): Required<ChunkOptions> {
  if (value !== undefined && !isObject(value)) {
    throw invalid('chunk', 'expected { maxTokens?, overlapTokens? }');
  }
  const chunk = value ?? {};
  return {
    maxTokens: integer(chunk.maxTokens, 'chunk.maxTokens', 16, DEFAULT_CHUNK.maxTokens),
    overlapTokens: integer(
      chunk.overlapTokens,
      'chunk.overlapTokens',
      0,
      DEFAULT_CHUNK.overlapTokens,
    ),
  };
}

function thresholdOf(value: unknown): number {
  if (value === undefined) return DEFAULT_THRESHOLD;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw invalid('threshold', 'expected a number from 0 to 1');
  }
  return value;
}

/** Validates options from code or JSON settings; unknown keys and bad values throw INVALID_CONFIG. */
export function resolveMem0Options(input: unknown = {}): ResolvedMem0Options {
  if (!isObject(input)) throw invalid('(options)', 'expected an object');
  const unknown = Object.keys(input).find((key) => !KNOWN_KEYS.has(key));
  if (unknown) throw invalid(unknown, 'unknown option');
  const mode = input.mode ?? 'oss';
  if (mode !== 'oss' && mode !== 'platform') throw invalid('mode', 'expected "oss" or "platform"');
  const infer = flag(input.infer, 'infer', false);
  const llm = providerOf(input.llm, 'llm');
  if (infer && !llm && mode === 'oss') {
    throw invalid(
      'infer',
      'inference needs an `llm` ({ provider, config }); leave infer off to store units verbatim',
    );
  }
  return {
    mode,
    embedder: embedderOf(input.embedder),
    vectorStore: providerOf(input.vectorStore, 'vectorStore'),
    scope: scopeOf(input.scope),
    namespace: text(input.namespace, 'namespace'),
    threshold: thresholdOf(input.threshold),
    infer,
    llm,
    telemetry: flag(input.telemetry, 'telemetry', false),
    apiKeyEnv:
      text(input.apiKeyEnv, 'apiKeyEnv', /^[A-Za-z_][A-Za-z0-9_]*$/) ?? DEFAULT_API_KEY_ENV,
    host: text(input.host, 'host', /^https?:\/\/\S+$/),
    dataDir: text(input.dataDir, 'dataDir', /^.+$/),
    chunk: chunkOf(input.chunk),
    syncOnWrite: flag(input.syncOnWrite, 'syncOnWrite', true),
    getMaxLines: integer(input.getMaxLines, 'getMaxLines', 1, 200),
    onWarning: optionalFunction(input.onWarning, 'onWarning'),
    loadModules: optionalFunction(input.loadModules, 'loadModules'),
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

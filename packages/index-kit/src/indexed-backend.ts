import { resolve } from 'node:path';
import {
  CairnError,
  formatError,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  type MemoryIndex,
  type MemoryIndexCapabilities,
  type MemoryIndexCommonOptions,
  type MemoryIndexRegistration,
  type MemoryIndexStats,
  type MemorySearchOptions,
  type MemorySearchResult,
  memorySearchOptionsSchema,
  memoryWorkspacePath,
  parseInput,
} from '@cairn/core';
import { passesIndexFilters, searchIndexFilters, splitIndexFilters } from './index-filters';
import { hitMetadata, searchResultOfHit } from './index-hits';
import { isDirectory, workspacePoolTarget } from './pool-definitions';
import { queryTerms } from './query-terms';
import { workspaceStorage } from './workspace-storage';

/** Storage is the file workspace's (markdown, atomic writes) whatever the index. */
export const indexedBackendCapabilities = {
  readable: true,
  writable: true,
  supportsAtomicWrite: true,
  hasConflictResolution: false,
  persistent: true,
} as const satisfies MemoryBackendCapabilities;

export type WarningSink = (message: string) => void;

/** Collects distinct warnings and tells `onWarning` once about each. */
export function warningSink(onWarning?: (message: string) => void): {
  warnings: string[];
  warn: WarningSink;
} {
  const warnings: string[] = [];
  const warn: WarningSink = (message) => {
    if (warnings.includes(message)) return;
    warnings.push(message);
    onWarning?.(message);
  };
  return { warnings, warn };
}

/** The file backend as its fallback role needs it: a backend with search. */
export type FallbackBackend = MemoryBackend & Pick<Required<MemoryBackend>, 'search'>;

/** Builds the file backend standing behind an index, reporting into the same warnings. */
export type BackendFallback = (options: {
  getMaxLines?: number;
  onWarning: WarningSink;
}) => FallbackBackend;

export interface IndexedBackend<Stats extends MemoryIndexStats = MemoryIndexStats>
  extends MemoryBackend {
  /** Fallbacks and rebuilds the backend went through, each once. */
  readonly warnings: readonly string[];
  search(rootDir: string, options: MemorySearchOptions): Promise<MemorySearchResult[]>;
  /** Brings the workspace's index up to date with the markdown (incremental). */
  refresh(rootDir: string): Promise<Stats>;
  /** Drops the workspace's index and builds it again (`cairn reindex`). */
  rebuild(rootDir: string): Promise<Stats>;
  /**
   * The project's index (created on first use): the engine hands it to the
   * retrieval adapter of the same engine, so both faces share one index.
   */
  indexFor(rootDir: string): MemoryIndex<Stats>;
  /** Closes every open index. */
  close(): Promise<void>;
}

/** Anything but the caller's bad input falls back. */
export function canFallBackByDefault(error: unknown): boolean {
  return !(CairnError.isInstance(error) && error.code === 'INVALID_INPUT');
}

const parseSearchOptions = (input: unknown) =>
  parseInput(memorySearchOptionsSchema, input, 'search options');

async function searchIndex(
  capabilities: MemoryIndexCapabilities,
  index: MemoryIndex<MemoryIndexStats>,
  rootDir: string,
  parsed: ReturnType<typeof parseSearchOptions>,
  terms: string[],
): Promise<MemorySearchResult[]> {
  const target = workspacePoolTarget(rootDir);
  const split = splitIndexFilters(searchIndexFilters(parsed.filters), capabilities);
  const hits = await index.search({
    text: parsed.query,
    terms,
    pools: [target],
    filters: split.pushed,
    limit: parsed.limit,
    postFiltered: split.postFiltered,
  });
  return hits
    .filter(
      (hit) => !split.postFiltered || passesIndexFilters(hitMetadata(hit, target), split.rest),
    )
    .slice(0, parsed.limit)
    .map((hit) => searchResultOfHit(hit, terms, parsed.snippetChars));
}

/** What one backend built over an index holds: its options, warnings, fallback and open indexes. */
interface BackendState<Options extends MemoryIndexCommonOptions, Stats extends MemoryIndexStats> {
  registration: MemoryIndexRegistration<Options, Stats>;
  options: Options;
  warn: WarningSink;
  canFallBack: (error: unknown) => boolean;
  capabilities: MemoryIndexCapabilities;
  file: FallbackBackend | undefined;
  /** One index per project root, created on first use. */
  indexes: Map<string, MemoryIndex<Stats>>;
}

function indexOf<Options extends MemoryIndexCommonOptions, Stats extends MemoryIndexStats>(
  state: BackendState<Options, Stats>,
  rootDir: string,
): MemoryIndex<Stats> {
  const key = resolve(rootDir);
  let index = state.indexes.get(key);
  if (!index) {
    index = state.registration.create({ rootDir: key, options: state.options, warn: state.warn });
    state.indexes.set(key, index);
  }
  return index;
}

/** Searches the index, or the file index with a warning when the engine is missing or failing. */
async function searchOrFallBack<
  Options extends MemoryIndexCommonOptions,
  Stats extends MemoryIndexStats,
>(
  state: BackendState<Options, Stats>,
  rootDir: string,
  input: MemorySearchOptions,
): Promise<MemorySearchResult[]> {
  const parsed = parseSearchOptions(input);
  if (!isDirectory(memoryWorkspacePath(rootDir))) return [];
  const terms = queryTerms(parsed.query);
  try {
    return await searchIndex(state.capabilities, indexOf(state, rootDir), rootDir, parsed, terms);
  } catch (error) {
    if (!state.file || !state.canFallBack(error)) throw error;
    const reason = formatError(error);
    state.warn(
      `${state.registration.engine} search failed, using the file index instead: ${reason}`,
    );
    return state.file.search(rootDir, parsed);
  }
}

/** Tells the index about a write; the markdown is written and is the truth, so a failure only delays it. */
async function noteWrite<Options extends MemoryIndexCommonOptions, Stats extends MemoryIndexStats>(
  state: BackendState<Options, Stats>,
  rootDir: string,
): Promise<void> {
  await indexOf(state, rootDir)
    .changed?.([workspacePoolTarget(rootDir)])
    .catch((error) => {
      if (!state.canFallBack(error)) throw error;
      const reason = formatError(error);
      state.warn(
        `${state.registration.engine} index not updated after a write (the next search retries): ${reason}`,
      );
    });
}

/**
 * A MemoryBackend (seed 000) over any index: storage is the file workspace
 * (markdown in `.cairn/memory/` stays the source of truth), search goes
 * through the index, refreshed from the markdown first. When the engine is
 * missing or fails, the fallback (the file index, passed in by whoever
 * composes) answers, with a warning; without one the failure is thrown.
 * One index per project root, created on first use.
 */
export function createIndexedBackend<
  Options extends MemoryIndexCommonOptions,
  Stats extends MemoryIndexStats,
>(
  registration: MemoryIndexRegistration<Options, Stats>,
  input: unknown = {},
  composition: { fallback?: BackendFallback } = {},
): IndexedBackend<Stats> {
  const options = registration.parseOptions(input);
  const { warnings, warn } = warningSink(options.onWarning);
  const state: BackendState<Options, Stats> = {
    registration,
    options,
    warn,
    canFallBack: registration.canFallBack ?? canFallBackByDefault,
    capabilities: registration.capabilitiesFor?.(options) ?? registration.capabilities,
    file: composition.fallback?.({ getMaxLines: options.getMaxLines, onWarning: warn }),
    indexes: new Map(),
  };
  const storage = workspaceStorage(registration.type, options.getMaxLines);
  const workspace = (rootDir: string) => [workspacePoolTarget(rootDir)];
  return {
    warnings,
    type: registration.type,
    name: registration.name,
    capabilities: indexedBackendCapabilities,
    ...storage,
    async write(rootDir, content) {
      const written = await storage.write(rootDir, content);
      await noteWrite(state, rootDir);
      return written;
    },
    search: (rootDir, input) => searchOrFallBack(state, rootDir, input),
    refresh: (rootDir) => indexOf(state, rootDir).refresh(workspace(rootDir)),
    rebuild: (rootDir) => indexOf(state, rootDir).refresh(workspace(rootDir), { rebuild: true }),
    indexFor: (rootDir) => indexOf(state, rootDir),
    async close() {
      const open = [...state.indexes.values()];
      state.indexes.clear();
      await Promise.all(open.map((index) => index.close()));
    },
  };
}

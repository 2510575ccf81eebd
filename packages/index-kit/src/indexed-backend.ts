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
import { queryTerms } from './keyword-scan';
import { isDirectory } from './pool-definitions';
import { workspacePoolTarget } from './pool-sources';
import { type WarningSink, warningSink } from './warning-sink';
import { workspaceStorage } from './workspace-storage';

/** Storage is the file workspace's (markdown, atomic writes) whatever the index. */
export const indexedBackendCapabilities = {
  readable: true,
  writable: true,
  supportsAtomicWrite: true,
  hasConflictResolution: false,
  persistent: true,
} as const satisfies MemoryBackendCapabilities;

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
  const canFallBack = registration.canFallBack ?? canFallBackByDefault;
  const capabilities = registration.capabilitiesFor?.(options) ?? registration.capabilities;
  const file = composition.fallback?.({ getMaxLines: options.getMaxLines, onWarning: warn });
  const indexes = new Map<string, MemoryIndex<Stats>>();
  const indexFor = (rootDir: string) => {
    const key = resolve(rootDir);
    let index = indexes.get(key);
    if (!index) {
      index = registration.create({ rootDir: key, options, warn });
      indexes.set(key, index);
    }
    return index;
  };

  async function search(rootDir: string, input: MemorySearchOptions) {
    const parsed = parseSearchOptions(input);
    if (!isDirectory(memoryWorkspacePath(rootDir))) return [];
    const terms = queryTerms(parsed.query);
    try {
      return await searchIndex(capabilities, indexFor(rootDir), rootDir, parsed, terms);
    } catch (error) {
      if (!file || !canFallBack(error)) throw error;
      const reason = formatError(error);
      warn(`${registration.engine} search failed, using the file index instead: ${reason}`);
      return file.search(rootDir, parsed);
    }
  }

  const storage = workspaceStorage(registration.type, options.getMaxLines);
  /** The markdown is written and is the truth; an index failure only delays it. */
  async function write(rootDir: string, content: string) {
    const written = await storage.write(rootDir, content);
    const index = indexFor(rootDir);
    await index.changed?.([workspacePoolTarget(rootDir)]).catch((error) => {
      if (!canFallBack(error)) throw error;
      const reason = formatError(error);
      warn(
        `${registration.engine} index not updated after a write (the next search retries): ${reason}`,
      );
    });
    return written;
  }

  return {
    warnings,
    type: registration.type,
    name: registration.name,
    capabilities: indexedBackendCapabilities,
    ...storage,
    write,
    search,
    refresh: (rootDir) => indexFor(rootDir).refresh([workspacePoolTarget(rootDir)]),
    rebuild: (rootDir) =>
      indexFor(rootDir).refresh([workspacePoolTarget(rootDir)], { rebuild: true }),
    indexFor,
    async close() {
      const open = [...indexes.values()];
      indexes.clear();
      await Promise.all(open.map((index) => index.close()));
    },
  };
}

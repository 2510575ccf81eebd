import { promises as fsp } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import {
  CairnError,
  embedderKey,
  listMemoryFiles,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  MemoryBackendError,
  type MemorySearchOptions,
  type MemorySearchResult,
  memorySearchOptionsSchema,
  parseInput,
  resolveWorkspaceFile,
} from '@cairn/core';
import {
  DEFAULT_GET_MAX_LINES,
  queryTerms,
  scanMarkdown,
  type WarningSink,
  warningSink,
  workspaceStorage,
} from '@cairn/index-kit';
import { type HybridSearch, type HybridSearchOptions, hybridSearchOf } from './hybrid-search';
import type { FileSearchResult } from './search-index';
import { discardSearchIndex, hasWorkspace, sharedSearchIndex } from './search-index-cache';

export const fileCapabilities = {
  readable: true,
  writable: true,
  supportsAtomicWrite: true,
  hasConflictResolution: false,
  persistent: true,
} as const satisfies MemoryBackendCapabilities;

export interface FileBackendOptions extends HybridSearchOptions {
  /** Most lines one `get` returns. Default 200. */
  getMaxLines?: number;
  /**
   * Search through the SQLite full-text index in `.cairn/index/` (default
   * true). False, or an index that cannot be opened, uses a plain scan.
   */
  searchIndex?: boolean;
  /** Told once about each distinct warning, e.g. search falling back to the scan. */
  onWarning?: (message: string) => void;
}

/** The file backend, with the warnings it has collected (index fallbacks). */
export interface FileBackend extends MemoryBackend {
  readonly warnings: readonly string[];
  /** With an embedder, every hit's `metadata` says whether it was hybrid or a keyword fallback. */
  search(rootDir: string, options: MemorySearchOptions): Promise<FileSearchResult[]>;
}

type ParsedSearchOptions = ReturnType<typeof parseSearchOptions>;
const parseSearchOptions = (input: unknown) =>
  parseInput(memorySearchOptionsSchema, input, 'search options');

const TYPE = 'file';

/** The plain scan: every workspace file read and split into paragraphs; no unit metadata. */
async function scanWorkspace(
  rootDir: string,
  options: ParsedSearchOptions,
): Promise<MemorySearchResult[]> {
  const filters = options.filters ?? {};
  // Scan hits are RAW text without dates, categories or review states.
  if (filters.kind?.length && !filters.kind.includes('RAW')) return [];
  if (filters.category?.length || filters.review?.length || filters.since || filters.until) {
    return [];
  }
  const terms = queryTerms(options.query);
  const results: MemorySearchResult[] = [];
  let files: Awaited<ReturnType<typeof listMemoryFiles>>;
  try {
    files = await listMemoryFiles(rootDir);
  } catch (error) {
    throw new MemoryBackendError('READ_FAILED', TYPE, 'Cannot list .cairn/memory/', {
      cause: error,
    });
  }
  for (const file of files) {
    if (filters.path && !file.path.startsWith(filters.path)) continue;
    const content = await resolveWorkspaceFile(rootDir, file.path)
      .then((path) => fsp.readFile(path, 'utf8'))
      .catch(() => '');
    for (const hit of scanMarkdown(content, terms, options.snippetChars)) {
      results.push({ path: file.path, kind: 'RAW', ...hit });
    }
  }
  return results.sort((a, b) => b.score - a.score).slice(0, options.limit);
}

/**
 * Search through the shared SQLite index; the plain scan answers when the
 * index cannot be loaded, opened or queried. A missing workspace is empty
 * and creates nothing.
 */
async function searchWorkspace(
  rootDir: string,
  input: MemorySearchOptions,
  useIndex: boolean,
  hybrid: HybridSearch | undefined,
  warn: WarningSink,
): Promise<FileSearchResult[]> {
  const options = parseSearchOptions(input);
  if (!hasWorkspace(rootDir)) return [];
  const index = useIndex ? sharedSearchIndex(rootDir, warn) : undefined;
  if (index) {
    try {
      return await index.searchWith(options, hybrid);
    } catch (error) {
      if (CairnError.isInstance(error)) throw error;
      discardSearchIndex(rootDir, error, warn);
    }
  }
  const scanned = await scanWorkspace(rootDir, options);
  if (!hybrid) return scanned;
  // No index, no vectors: say so on every hit.
  const metadata = {
    mode: 'keyword' as const,
    embedder: embedderKey(hybrid.embedder),
    embedderError: 'the search index is unavailable; answered by a plain keyword scan',
  };
  return scanned.map((hit) => ({ ...hit, metadata }));
}

/**
 * The default backend: `.cairn/memory/MEMORY.md` on disk, written through a
 * temp file and a rename so no reader ever sees a torn file.
 */
export function createFileBackend(options: FileBackendOptions = {}): FileBackend {
  const maxLines = options.getMaxLines ?? DEFAULT_GET_MAX_LINES;
  const useIndex = options.searchIndex !== false;
  const hybrid = hybridSearchOf(options);
  const { warnings, warn } = warningSink(options.onWarning);
  return {
    warnings,
    type: TYPE,
    name: 'File (markdown in .cairn/memory/)',
    capabilities: fileCapabilities,
    ...workspaceStorage(TYPE, maxLines),
    search: (rootDir, searchOptions) =>
      searchWorkspace(rootDir, searchOptions, useIndex, hybrid, warn),
  };
}

import type { MemoryIndexRegistration, MemorySearchOptions } from '@cairn/core';
import {
  createIndexedBackend,
  type IndexedBackend,
  indexedBackendCapabilities,
  type SearchIndexRefreshStats,
} from '@cairn/index-kit';
import { FileIndex } from './file-index';
import { type FileIndexOptions, parseFileOptions } from './file-options';
import type { HybridSearchOptions } from './hybrid-search';
import type { FileSearchResult } from './search-index';

export const fileCapabilities = indexedBackendCapabilities;

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

const keyword = { semantic: false, keyword: true, filters: ['*'], records: true } as const;

/**
 * The file index (SQLite FTS5, hybrid with an embedder, a plain scan when
 * SQLite is unavailable): it applies every filter itself, so hybrid
 * ranking sees only hits that pass. It is everyone's fallback and has none.
 */
export const fileIndex: MemoryIndexRegistration<FileIndexOptions, SearchIndexRefreshStats> = {
  type: 'file',
  name: 'File (markdown in .cairn/memory/)',
  engine: 'file',
  capabilities: keyword,
  capabilitiesFor: (options) => (options.hybrid ? { ...keyword, semantic: true } : keyword),
  parseOptions: parseFileOptions,
  create: ({ rootDir, options, warn }) =>
    new FileIndex(rootDir, options.hybrid, options.useIndex, warn),
};

/** The file backend, with the warnings it has collected (index fallbacks). */
export interface FileBackend extends IndexedBackend<SearchIndexRefreshStats> {
  /** With an embedder, every hit's `metadata` says whether it was hybrid or a keyword fallback. */
  search(rootDir: string, options: MemorySearchOptions): Promise<FileSearchResult[]>;
}

/**
 * The default backend: `.cairn/memory/MEMORY.md` on disk, written through a
 * temp file and a rename so no reader ever sees a torn file; search through
 * the file index.
 */
export function createFileBackend(options: FileBackendOptions = {}): FileBackend {
  return createIndexedBackend(fileIndex, options) as FileBackend;
}

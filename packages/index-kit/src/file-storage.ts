import { existsSync } from 'node:fs';
import {
  formatError,
  type MemoryBackend,
  type MemorySearchOptions,
  type MemorySearchResult,
  memorySearchOptionsSchema,
  memoryWorkspacePath,
  parseInput,
} from '@cairn/core';
import { queryTerms } from './keyword-scan';
import type { WarningSink } from './warning-sink';

export type FileStorage = Pick<Required<MemoryBackend>, 'read' | 'write' | 'get' | 'exists'>;

/** The file backend (`@cairn/backend-file`) as its fallback role needs it: a backend with search. */
export type FallbackBackend = MemoryBackend & Pick<Required<MemoryBackend>, 'search'>;

/**
 * The storage half of a backend whose search lives elsewhere (LanceDB,
 * Qdrant, Mem0, qmd): read, write, get and exists are the file backend's,
 * so the markdown in `.cairn/memory/` stays the source of truth.
 */
export function fileStorage(file: FallbackBackend): FileStorage {
  return {
    read: (rootDir) => file.read(rootDir),
    write: (rootDir, content) => file.write(rootDir, content),
    get: (rootDir, options) => file.get!(rootDir, options),
    exists: (rootDir) => file.exists!(rootDir),
  };
}

const parseSearchOptions = (input: unknown) =>
  parseInput(memorySearchOptionsSchema, input, 'search options');
export type ParsedSearchOptions = ReturnType<typeof parseSearchOptions>;

/** The file backend standing behind another search engine. */
export interface FileFallback {
  /** The engine as warnings name it: `LanceDB`, `Qdrant`, `Mem0`. */
  engine: string;
  file: FallbackBackend;
  warn: WarningSink;
  /** False for what the caller must fix (bad input): that is thrown, not answered. */
  canFallBack(error: unknown): boolean;
}

/**
 * A workspace search through another engine: the options are parsed, a
 * project without a workspace finds nothing, and when the engine fails the
 * file index answers, with a warning.
 */
export function searchWithFileFallback(
  fallback: FileFallback,
  search: (
    rootDir: string,
    options: ParsedSearchOptions,
    terms: string[],
  ) => Promise<MemorySearchResult[]>,
): (rootDir: string, input: MemorySearchOptions) => Promise<MemorySearchResult[]> {
  return async (rootDir, input) => {
    const parsed = parseSearchOptions(input);
    if (!existsSync(memoryWorkspacePath(rootDir))) return [];
    const terms = queryTerms(parsed.query);
    try {
      return await search(rootDir, parsed, terms);
    } catch (error) {
      if (!fallback.canFallBack(error)) throw error;
      const reason = formatError(error);
      fallback.warn(`${fallback.engine} search failed, using the file index instead: ${reason}`);
      return fallback.file.search(rootDir, parsed);
    }
  };
}

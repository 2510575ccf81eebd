import { promises as fsp } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import {
  CairnError,
  embedderKey,
  listMemoryFiles,
  MEMORY_LONG_TERM_FILENAME,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  MemoryBackendError,
  type MemoryGetOptions,
  type MemoryGetResult,
  type MemoryReadResult,
  type MemorySearchOptions,
  type MemorySearchResult,
  type MemoryWriteResult,
  makeDirectory,
  memoryGetOptionsSchema,
  memoryLongTermPath,
  memorySearchOptionsSchema,
  memoryWorkspacePath,
  parseInput,
  resolveWorkspaceFile,
  writeFileAtomic,
} from '@cairn/core';
import { queryTerms, scanMarkdown, type WarningSink, warningSink } from '@cairn/index-kit';
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

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

async function readLongTerm(rootDir: string): Promise<MemoryReadResult> {
  try {
    const content = await fsp.readFile(memoryLongTermPath(rootDir), 'utf8');
    return { content, exists: true, path: MEMORY_LONG_TERM_FILENAME };
  } catch (error) {
    if (isMissing(error)) return { content: '', exists: false, path: MEMORY_LONG_TERM_FILENAME };
    throw new MemoryBackendError('READ_FAILED', TYPE, 'Cannot read .cairn/memory/MEMORY.md', {
      cause: error,
    });
  }
}

async function writeLongTerm(rootDir: string, content: unknown): Promise<MemoryWriteResult> {
  if (typeof content !== 'string') {
    throw new CairnError('INVALID_INPUT', 'Memory content must be a string', {
      hint: 'pass the new MEMORY.md text as a string; nothing was written',
    });
  }
  try {
    await makeDirectory(memoryWorkspacePath(rootDir));
    await writeFileAtomic(memoryLongTermPath(rootDir), content);
  } catch (error) {
    throw new MemoryBackendError('WRITE_FAILED', TYPE, 'Cannot write .cairn/memory/MEMORY.md', {
      cause: error,
    });
  }
  return { path: MEMORY_LONG_TERM_FILENAME, bytes: Buffer.byteLength(content) };
}

async function getLines(
  rootDir: string,
  input: MemoryGetOptions,
  maxLines: number,
): Promise<MemoryGetResult> {
  const options = parseInput(memoryGetOptionsSchema, input, 'get options');
  const path = await resolveWorkspaceFile(rootDir, options.path);
  let text: string;
  try {
    text = await fsp.readFile(path, 'utf8');
  } catch (error) {
    const code = isMissing(error) ? 'NOT_FOUND' : 'READ_FAILED';
    throw new MemoryBackendError(code, TYPE, `Cannot read .cairn/memory/${options.path}`, {
      cause: error,
      details: { path: options.path },
    });
  }
  const lines = text.length === 0 ? [] : text.replace(/\n$/, '').split('\n');
  const count = Math.min(options.lineCount ?? maxLines, maxLines);
  const slice = lines.slice(options.startLine - 1, options.startLine - 1 + count);
  const endLine = options.startLine - 1 + slice.length;
  return {
    path: options.path,
    content: slice.join('\n'),
    startLine: options.startLine,
    endLine,
    totalLines: lines.length,
    truncated: endLine < lines.length,
  };
}

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
  const maxLines = options.getMaxLines ?? 200;
  const useIndex = options.searchIndex !== false;
  const hybrid = hybridSearchOf(options);
  const { warnings, warn } = warningSink(options.onWarning);
  return {
    warnings,
    type: TYPE,
    name: 'File (markdown in .cairn/memory/)',
    capabilities: fileCapabilities,
    read: readLongTerm,
    write: writeLongTerm,
    get: (rootDir, getOptions) => getLines(rootDir, getOptions, maxLines),
    search: (rootDir, searchOptions) =>
      searchWorkspace(rootDir, searchOptions, useIndex, hybrid, warn),
    exists: (rootDir) =>
      fsp.access(memoryLongTermPath(rootDir)).then(
        () => true,
        () => false,
      ),
  };
}

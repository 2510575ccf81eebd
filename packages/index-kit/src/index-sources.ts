import { promises as fsp, lstatSync, readdirSync } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { join } from 'node:path';
import {
  ATOMIC_TEMP_PREFIX,
  CairnError,
  type ChunkOptions,
  chunkDocument,
  compareCodeUnits,
  decodeRecordHeader,
  listMemoryFilesSync,
  type MemoryChunk,
  parseMemoryDocument,
  readCairnFile,
  type SourceFile,
  validateWorkspacePath,
  workspaceFilePath,
} from '@cairn/core';

export type { SourceFile } from '@cairn/core';

/** Where a pool's markdown comes from. */
export interface IndexSource {
  /** The pool key in the index: `workspace`, or the absolute folder of a registered pool. */
  pool: string;
  /** Only stat calls: a refresh with nothing changed does no more than this. */
  list(): SourceFile[];
  /** The file's bytes, or undefined when it vanished or may not be read. */
  read(path: string): Promise<Buffer | undefined>;
  /** A source of task-history records (see core's `PoolSource.records`). */
  records?: boolean;
  /** Cuts a file the source's own way (core's `PoolSource.chunk`); absent, `chunkFile` does. */
  chunk?(text: string, path: string): Promise<MemoryChunk[]> | MemoryChunk[];
}

export const WORKSPACE_SOURCE = 'workspace';
export const MAX_FILES_PER_FOLDER = 5000;

function entriesOf(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function statOf(path: string, rel: string): SourceFile | undefined {
  const info = lstatSync(path, { throwIfNoEntry: false });
  return info?.isFile() ? { path: rel, bytes: info.size, mtimeMs: info.mtimeMs } : undefined;
}

/**
 * A workspace file's bytes through core's `.cairn/` resolver, or
 * undefined when it is gone or unreadable. A link or a non-regular file
 * throws INVALID_PATH: a refresh never reads through one, and never
 * mistakes one for a deleted file.
 */
export async function readWorkspaceFile(
  rootDir: string,
  path: string,
): Promise<Buffer | undefined> {
  try {
    return await readCairnFile(rootDir, workspaceFilePath(validateWorkspacePath(path)));
  } catch (error) {
    if (CairnError.isInstance(error) && error.code === 'INVALID_PATH') throw error;
    return undefined;
  }
}

/** The bytes of `path` (`/`-separated) under `folder`, or undefined when gone or unreadable. */
export async function readFolderFile(folder: string, path: string): Promise<Buffer | undefined> {
  return fsp.readFile(join(folder, ...path.split('/'))).catch(() => undefined);
}

/**
 * The workspace as an index source. Listed synchronously (core's
 * `listMemoryFilesSync`): a search refreshes first, and awaiting one lstat
 * per file costs more than the query. A link under `.cairn/` (or a FIFO
 * with a workspace name) throws INVALID_PATH.
 */
export function workspaceSource(rootDir: string): IndexSource {
  return {
    pool: WORKSPACE_SOURCE,
    list: () => listMemoryFilesSync(rootDir),
    read: (path) => readWorkspaceFile(rootDir, path),
  };
}

export interface ListMarkdownOptions {
  /** Leave out a file that cannot be stat'ed (no permission, a race) instead of throwing. */
  skipUnreadable?: boolean;
}

function statOrSkip(path: string, rel: string): SourceFile | undefined {
  try {
    return statOf(path, rel);
  } catch {
    return undefined;
  }
}

/** Every `*.md` under `folder` (hidden entries, links and temp files skipped). */
export function listMarkdownFiles(folder: string, options: ListMarkdownOptions = {}): SourceFile[] {
  const stat = options.skipUnreadable ? statOrSkip : statOf;
  const files: SourceFile[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of entriesOf(dir)) {
      if (files.length >= MAX_FILES_PER_FOLDER) return;
      if (entry.name.startsWith('.') || entry.name.startsWith(ATOMIC_TEMP_PREFIX)) continue;
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${rel}/`);
      else if (entry.isFile() && entry.name.endsWith('.md')) {
        const file = stat(join(dir, entry.name), rel);
        if (file) files.push(file);
      }
    }
  };
  walk(folder, '');
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/** A registered pool folder of arbitrary markdown, keyed by its absolute path. */
export function folderSource(folder: string): IndexSource {
  return {
    pool: folder,
    list: () => listMarkdownFiles(folder),
    read: (path) => readFolderFile(folder, path),
  };
}

/** Any `<!-- cairn:… -->` line: metadata, never indexed text (head markers, damaged unit markers). */
const MARKER_LINE = /^\s*<!--\s*cairn:/;

/** Chunking options, and whether the file may be a task-history record (its source's `records`). */
export interface ChunkFileOptions extends ChunkOptions {
  records?: boolean | undefined;
}

/** The record header of a records source's file: its first line, when that is a valid header. */
function recordOf(text: string, records: boolean | undefined) {
  if (!records) return undefined;
  const end = text.indexOf('\n');
  return decodeRecordHeader(end === -1 ? text : text.slice(0, end));
}

/**
 * Parses and chunks one file with core's codec and chunker; marker lines
 * left in RAW text (a damaged unit, the head region) are removed, and
 * chunks with no text left are dropped. A records source's file (see
 * `PoolSource.records`) gives every chunk its header's record metadata.
 */
export function chunkFile(text: string, path: string, options: ChunkFileOptions): MemoryChunk[] {
  const record = recordOf(text, options.records);
  const chunks: MemoryChunk[] = [];
  for (const chunk of chunkDocument(parseMemoryDocument(text, path), options)) {
    const lines = chunk.text.split('\n');
    const kept = lines.some((line) => MARKER_LINE.test(line))
      ? lines.filter((line) => !MARKER_LINE.test(line)).join('\n')
      : chunk.text;
    if (kept.trim() === '') continue;
    const found = kept === chunk.text ? chunk : { ...chunk, text: kept };
    // A record's chunks date from the record: the `created` filters apply to it as to a unit.
    chunks.push(
      record ? { ...found, record, createdAt: found.createdAt ?? record.createdAt } : found,
    );
  }
  return chunks;
}

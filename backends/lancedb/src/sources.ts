/**
 * Where pool markdown comes from, and how a file becomes chunks.
 *
 * These mirror `workspaceSource`, `folderSource`, `listMarkdownFiles` and
 * `chunkFile` of @cairn/backend-file (src/index-sources.ts), which that
 * package does not export yet. Once it does, this file becomes re-exports.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ATOMIC_TEMP_PREFIX,
  type ChunkOptions,
  chunkDocument,
  compareCodeUnits,
  listMemoryFiles,
  type MemoryChunk,
  parseMemoryDocument,
  resolveWorkspaceFile,
} from '@cairn/core';

export interface SourceFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

export interface IndexSource {
  /** Identifies the folder: the pool is reindexed when it points elsewhere. */
  key: string;
  list(): Promise<SourceFile[]> | SourceFile[];
  /** The file's bytes, or undefined when it vanished or may not be read. */
  read(path: string): Promise<Buffer | undefined>;
}

export const WORKSPACE_SOURCE = 'workspace';
/** Same cap as the file backend: a runaway folder cannot stall recall. */
export const MAX_FILES_PER_FOLDER = 5000;

/** The workspace files (`MEMORY.md`, daily files, `threads/*.md`…), by core's name rules. */
export function workspaceSource(rootDir: string): IndexSource {
  return {
    key: WORKSPACE_SOURCE,
    list: () => listMemoryFiles(rootDir).catch(() => []),
    read: async (path) => {
      const resolved = await resolveWorkspaceFile(rootDir, path).catch(() => undefined);
      return resolved ? readFile(resolved).catch(() => undefined) : undefined;
    },
  };
}

async function walkMarkdown(folder: string): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (files.length >= MAX_FILES_PER_FOLDER) return;
      if (entry.name.startsWith('.') || entry.name.startsWith(ATOMIC_TEMP_PREFIX)) continue;
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), `${rel}/`);
      else if (entry.isFile() && entry.name.endsWith('.md')) {
        const info = await stat(join(dir, entry.name)).catch(() => undefined);
        if (info) files.push({ path: rel, bytes: info.size, mtimeMs: info.mtimeMs });
      }
    }
  };
  await walk(folder, '');
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/** Every `*.md` under a registered pool folder (hidden entries, links and temp files skipped). */
export function folderSource(folder: string): IndexSource {
  return {
    key: folder,
    list: () => walkMarkdown(folder),
    read: (path) => readFile(join(folder, ...path.split('/'))).catch(() => undefined),
  };
}

const MARKER_LINE = /^\s*<!--\s*cairn:/;

/** Core's parser and chunker; marker lines left in RAW text are dropped, empty chunks too. */
export function chunkFile(text: string, path: string, options: ChunkOptions): MemoryChunk[] {
  return chunkDocument(parseMemoryDocument(text, path), options).flatMap((chunk) => {
    const kept = chunk.text
      .split('\n')
      .filter((line) => !MARKER_LINE.test(line))
      .join('\n');
    if (kept.trim() === '') return [];
    return [kept === chunk.text ? chunk : { ...chunk, text: kept }];
  });
}

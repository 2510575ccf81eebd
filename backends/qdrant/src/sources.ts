/**
 * Where pool markdown comes from, which pools answer a caller, and how a
 * file becomes chunks: the file backend's rules (src/index-sources.ts and
 * src/pool-filters.ts of @cairn/backend-file), which that package does not
 * export yet. When it does, this file becomes re-exports.
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
  type MemoryPoolDefinition,
  type NormalizedMemoryQuery,
  parseMemoryDocument,
  resolveWorkspaceFile,
} from '@cairn/core';

export interface SourceFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

export interface IndexSource {
  /** Identifies the folder: a pool that points elsewhere is indexed again. */
  key: string;
  list(): Promise<SourceFile[]>;
  /** The bytes, or undefined when the file vanished or may not be read. */
  read(path: string): Promise<Buffer | undefined>;
}

export const WORKSPACE_POOL_ID = 'workspace';
const MAX_FILES_PER_FOLDER = 5000;

/** The workspace files, by core's name rules (`MEMORY.md`, daily files, `threads/*.md`). */
export function workspaceSource(rootDir: string): IndexSource {
  return {
    key: WORKSPACE_POOL_ID,
    list: () => listMemoryFiles(rootDir).catch(() => []),
    async read(path) {
      const file = await resolveWorkspaceFile(rootDir, path).catch(() => undefined);
      return file ? readFile(file).catch(() => undefined) : undefined;
    },
  };
}

/** Every `*.md` under a pool folder; hidden entries, links and atomic-write temp files skipped. */
export function folderSource(folder: string): IndexSource {
  const list = async () => {
    const found: SourceFile[] = [];
    const pending = [''];
    while (pending.length > 0 && found.length < MAX_FILES_PER_FOLDER) {
      const prefix = pending.shift()!;
      const entries = await readdir(join(folder, prefix), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (entry.name.startsWith('.') || entry.name.startsWith(ATOMIC_TEMP_PREFIX)) continue;
        const rel = `${prefix}${entry.name}`;
        if (entry.isDirectory()) pending.push(`${rel}/`);
        if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
        const info = await stat(join(folder, rel)).catch(() => undefined);
        if (info) found.push({ path: rel, bytes: info.size, mtimeMs: info.mtimeMs });
      }
    }
    return found.slice(0, MAX_FILES_PER_FOLDER).sort((a, b) => compareCodeUnits(a.path, b.path));
  };
  return {
    key: folder,
    list,
    read: (path) => readFile(join(folder, ...path.split('/'))).catch(() => undefined),
  };
}

const MARKER = /^\s*<!--\s*cairn:/;

/** Core's parser and chunker; marker lines left in RAW text never reach the index. */
export function chunkFile(text: string, path: string, options: ChunkOptions): MemoryChunk[] {
  return chunkDocument(parseMemoryDocument(text, path), options).flatMap((chunk) => {
    const kept = chunk.text
      .split('\n')
      .filter((line) => !MARKER.test(line))
      .join('\n');
    if (kept.trim() === '') return [];
    return [kept === chunk.text ? chunk : { ...chunk, text: kept }];
  });
}

/** Whether the pool answers this caller: tier, pool ids, agents and roles. */
export function eligible(pool: MemoryPoolDefinition, query: NormalizedMemoryQuery): boolean {
  if (!query.tiers.includes(pool.tier)) return false;
  if (query.poolIds && !query.poolIds.includes(pool.id)) return false;
  if (pool.agents && !pool.agents.includes(query.agentId)) return false;
  return !pool.roles || (query.role !== undefined && pool.roles.includes(query.role));
}

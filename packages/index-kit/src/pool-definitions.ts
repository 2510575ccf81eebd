import { promises as fsp, lstatSync, readdirSync, statSync } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { isAbsolute, join, resolve } from 'node:path';
import {
  ATOMIC_TEMP_PREFIX,
  assertNoCairnLinks,
  CairnError,
  compareCodeUnits,
  isUnsafePathError,
  listMemoryFiles,
  listMemoryFilesSync,
  type MemoryChunk,
  type MemoryPoolDefinition,
  type MemoryResult,
  memoryPoolDefinitionSchema,
  memoryWorkspacePath,
  type NormalizedMemoryQuery,
  type PoolSource,
  type PoolTarget,
  parseInput,
  readCairnFile,
  type SourceFile,
  splitCairnPath,
  validateWorkspacePath,
  workspaceFilePath,
} from '@cairn/core';

export type { PoolSource, PoolTarget, SourceFile };

/*
 * Memory pools: the workspace's hot pool and the registered ones, their
 * folders, the sources that list and read their files (an index's
 * `IndexSource`, a derived store's `PoolSource`), and which callers and
 * metadata each answers.
 */

/** The workspace itself is always the hot pool unless a registered pool takes this id. */
export const WORKSPACE_POOL_ID = 'workspace';

/** The builtin hot pool: the project's `.cairn/memory/` folder. */
export function workspacePoolOf(rootDir: string): MemoryPoolDefinition {
  return { id: WORKSPACE_POOL_ID, tier: 'hot', path: memoryWorkspacePath(rootDir) };
}

export interface RegisteredPools {
  /** The definitions as given, validated. */
  parsed: MemoryPoolDefinition[];
  /** What recall walks: `workspace` first, unless a definition takes its id. */
  pools: MemoryPoolDefinition[];
}

/** Validates pool definitions (a bad one throws INVALID_INPUT before anything changes). */
export function registerPoolDefinitions(
  definitions: readonly unknown[],
  workspace: MemoryPoolDefinition,
): RegisteredPools {
  const parsed = definitions.map((pool) =>
    parseInput(memoryPoolDefinitionSchema, pool, 'pool definition'),
  );
  const pools = parsed.some((pool) => pool.id === workspace.id) ? parsed : [workspace, ...parsed];
  return { parsed, pools };
}

/** A pool's folder: its path, absolute or relative to the project root. */
export function poolFolder(rootDir: string, pool: MemoryPoolDefinition): string {
  return isAbsolute(pool.path) ? pool.path : resolve(rootDir, pool.path);
}

/** The pools as `status()` lists them. */
export function poolSummaries(pools: readonly MemoryPoolDefinition[]) {
  return pools.map((p) => ({ id: p.id, tier: p.tier, path: p.path }));
}

/**
 * True when `path` is a folder. Under a project's `.cairn/` (the
 * workspace pool) no link is followed: one on the way, dangling or not,
 * throws INVALID_PATH rather than reading as a missing folder.
 */
export function isDirectory(path: string): boolean {
  const absolute = resolve(path);
  if (splitCairnPath(absolute)) return assertNoCairnLinks(absolute)?.isDirectory() === true;
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** Whether `indexPaths(paths)` concerns the folder: no paths (all), the folder, or a path under it. */
export function coversFolder(paths: readonly string[], folder: string): boolean {
  return paths.length === 0 || paths.some((p) => p === folder || p.startsWith(`${folder}/`));
}

/** Best score first; ties by id, so equal scores come back in a stable order. */
export function byScore(a: MemoryResult, b: MemoryResult): number {
  return (b.score ?? 0) - (a.score ?? 0) || compareCodeUnits(a.id, b.id);
}

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

/**
 * The workspace files (`MEMORY.md`, daily files, `threads/*.md`…), by
 * core's name rules. A link under `.cairn/` throws INVALID_PATH rather
 * than listing as an empty workspace.
 */
export function workspacePoolSource(rootDir: string): PoolSource {
  return {
    key: WORKSPACE_POOL_ID,
    list: () =>
      listMemoryFiles(rootDir).catch((error: unknown) => {
        if (isUnsafePathError(error)) throw error;
        return [];
      }),
    read: (path) => readWorkspaceFile(rootDir, path),
  };
}

/** The workspace (`.cairn/memory/`) as the hot pool of a derived store. */
export function workspacePoolTarget(rootDir: string): PoolTarget {
  return {
    id: WORKSPACE_POOL_ID,
    tier: 'hot',
    base: memoryWorkspacePath(rootDir),
    source: workspacePoolSource(rootDir),
  };
}

/** Every `*.md` under a registered pool folder (hidden entries, links and temp files skipped). */
export function folderPoolSource(folder: string): PoolSource {
  return {
    key: folder,
    list: () => listMarkdownFiles(folder, { skipUnreadable: true }),
    read: (path) => readFolderFile(folder, path),
  };
}

/** Whether the pool answers this caller: tier, pool ids, agents and roles. */
export function eligible(pool: MemoryPoolDefinition, query: NormalizedMemoryQuery): boolean {
  if (!query.tiers.includes(pool.tier)) return false;
  if (query.poolIds && !query.poolIds.includes(pool.id)) return false;
  if (pool.agents && !pool.agents.includes(query.agentId)) return false;
  if (pool.roles && (!query.role || !pool.roles.includes(query.role))) return false;
  return true;
}

/** Metadata filters: every key must equal the value, or one of the listed values. */
export function matchesFilters(
  metadata: Record<string, unknown>,
  filters: NormalizedMemoryQuery['filters'],
): boolean {
  for (const [key, wanted] of Object.entries(filters ?? {})) {
    const actual = String(metadata[key] ?? '');
    if (Array.isArray(wanted) ? !wanted.includes(actual) : wanted !== actual) return false;
  }
  return true;
}

import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  assertNoCairnLinks,
  compareCodeUnits,
  isUnsafePathError,
  listMemoryFiles,
  type MemoryPoolDefinition,
  type MemoryResult,
  memoryPoolDefinitionSchema,
  memoryWorkspacePath,
  type NormalizedMemoryQuery,
  type PoolSource,
  type PoolTarget,
  parseInput,
  splitCairnPath,
} from '@cairn/core';
import { listMarkdownFiles, readFolderFile, readWorkspaceFile } from './index-sources';

export type { PoolSource, PoolTarget };

/*
 * Memory pools: the workspace's hot pool and the registered ones, their
 * folders, the sources that list and read their files, and which callers
 * and metadata each answers.
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

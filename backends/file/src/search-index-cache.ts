import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cairnIndexPath, formatError, memoryWorkspacePath } from '@cairn/core';
import type { WarningSink } from '@cairn/index-kit';
import { isDirectory } from '@cairn/index-kit';
import { isDamagedDatabase } from '@cairn/sqlite';
import { followSourceChanges, type SourceChangeFeed } from './index-refresh';
import { POOL_INDEX_FILENAME, ProjectSearchIndex } from './search-index';

export type { SourceChangeFeed };

/** One open index per project root, shared by the backend and the retrieval adapter. */
const indexes = new Map<string, ProjectSearchIndex>();

/** Change feeds of workspaces, by project root: the shared index of the root follows its feed. */
const workspaceFeeds = new Map<string, SourceChangeFeed>();

/**
 * Lets the shared index of `rootDir` refresh from what `feed` says changed
 * in `.cairn/memory/` instead of a stat of every file (a long-lived engine
 * passes its workspace watch). The last feed given for a root is used;
 * the function returned forgets it again.
 */
export function followWorkspaceChanges(rootDir: string, feed: SourceChangeFeed): () => void {
  const key = resolve(rootDir);
  workspaceFeeds.set(key, feed);
  const index = indexes.get(key);
  if (index) followSourceChanges(index.workspaceSource, feed);
  // The engine that closes its watch lets go of it: the map holds no closed project's watch.
  return () => {
    if (workspaceFeeds.get(key) === feed) workspaceFeeds.delete(key);
  };
}

/** True when `.cairn/memory/` exists: without it nothing is indexed and nothing is created. */
export function hasWorkspace(rootDir: string): boolean {
  return isDirectory(memoryWorkspacePath(rootDir));
}

/**
 * The cached index of `rootDir`, opened on first use. Undefined (with a
 * warning) when better-sqlite3 cannot be loaded or the database cannot be
 * opened; callers then fall back to the plain scan. A later call tries again.
 */
export function sharedSearchIndex(
  rootDir: string,
  warn: WarningSink,
): ProjectSearchIndex | undefined {
  const key = resolve(rootDir);
  const cached = indexes.get(key);
  if (cached) return cached;
  try {
    const index = new ProjectSearchIndex(key);
    indexes.set(key, index);
    const feed = workspaceFeeds.get(key);
    if (feed) followSourceChanges(index.workspaceSource, feed);
    return index;
  } catch (error) {
    warn(`search index unavailable (${formatError(error)}); using a plain keyword scan`);
    return undefined;
  }
}

/**
 * Closes and forgets the cached index of `rootDir` after a failure; a
 * damaged database file is deleted so the next search rebuilds it.
 */
export function discardSearchIndex(rootDir: string, error: unknown, warn: WarningSink): void {
  const key = resolve(rootDir);
  const index = indexes.get(key);
  indexes.delete(key);
  try {
    index?.close();
    if (index && isDamagedDatabase(error)) index.removeFiles();
  } catch {
    // Best effort: the scan answers this time, and the next call reopens.
  }
  warn(`search index failed (${formatError(error)}); using a plain keyword scan`);
}

/** Closes every cached index (for tests and for processes that shut down cleanly). */
export function closeSearchIndexes(): void {
  for (const index of indexes.values()) index.close();
  indexes.clear();
}

/**
 * How many files and chunks the index holds for a registered pool (the
 * project's documents: files and sections), or undefined when the pool
 * index was never built. Opens nothing that does not exist yet.
 */
export function indexedPoolCounts(
  rootDir: string,
  pool: string,
): { files: number; chunks: number } | undefined {
  if (!existsSync(join(cairnIndexPath(rootDir), POOL_INDEX_FILENAME))) return undefined;
  const index = sharedSearchIndex(rootDir, () => undefined);
  if (!index) return undefined;
  try {
    const row = index
      .folders()
      .connection()
      .db.prepare(
        'SELECT COUNT(DISTINCT path) AS files, COUNT(*) AS chunks FROM chunks WHERE pool = ?',
      )
      .get(pool) as { files: number; chunks: number } | undefined;
    return row ? { files: Number(row.files), chunks: Number(row.chunks) } : undefined;
  } catch {
    return undefined;
  }
}

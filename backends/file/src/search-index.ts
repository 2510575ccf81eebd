import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type ChunkOptions,
  cairnIndexPath,
  formatError,
  type MemorySearchOptions,
  type MemorySearchResult,
  memorySearchOptionsSchema,
  memoryWorkspacePath,
  parseInput,
} from '@cairn/core';
import type { SearchIndexRefreshStats, WarningSink } from '@cairn/index-kit';
import {
  boundSnippet,
  type IndexSource,
  isDirectory,
  projectGlossaryIndex,
  searchIndexFilters,
  searchResultOf,
  WORKSPACE_SOURCE,
  workspaceSource,
} from '@cairn/index-kit';
import { isDamagedDatabase } from '@cairn/sqlite';
import {
  type HybridSearch,
  type HybridSearchOptions,
  hybridSearchOf,
  type SearchModeInfo,
  searchPool,
} from './hybrid-search';
import {
  followSourceChanges,
  IndexDatabase,
  removeDatabaseFiles,
  type SourceChangeFeed,
} from './index-database';
import { type ChunkHit, chunkQueryOf } from './index-query';
import { planQuery, snippetWords } from './query-plan';
import { vectorStoreFor } from './vector-store';

/** The workspace index, under `.cairn/index/`. */
export const SEARCH_INDEX_FILENAME = 'search.sqlite';
/** Registered retrieval-pool folders, kept apart so they never skew workspace ranking. */
export const POOL_INDEX_FILENAME = 'pools.sqlite';

export interface SearchIndexOptions extends HybridSearchOptions {
  /** RAW chunk sizing for core's chunker; an index built with other values is rebuilt. */
  chunk?: ChunkOptions;
}

/** A search hit of the file backend: with an embedder, `metadata` says how it was found. */
export interface FileSearchResult extends MemorySearchResult {
  metadata?: SearchModeInfo;
}

/**
 * Full-text search over the workspace, kept in `.cairn/index/search.sqlite`.
 * The index is derived data: deleting it loses nothing, the next search
 * rebuilds it from the markdown.
 */
export interface SearchIndex {
  readonly rootDir: string;
  /** Absolute path of the SQLite file. */
  readonly dbPath: string;
  /** Brings the index up to date; costs one stat per file when nothing changed. */
  refresh(): Promise<SearchIndexRefreshStats>;
  /** Drops everything and indexes every file again. */
  rebuild(): Promise<SearchIndexRefreshStats>;
  /** Refreshes, then ranks chunks by bm25. Bad options throw INVALID_INPUT. */
  search(options: MemorySearchOptions): Promise<FileSearchResult[]>;
  close(): void;
}

function toSearchResult(hit: ChunkHit, terms: string[], snippetChars: number): FileSearchResult {
  return searchResultOf(hit, hit.score, boundSnippet(hit.text, terms, snippetChars));
}

/** The indexes of one project root: the workspace, and (opened on demand) pool folders. */
export class ProjectSearchIndex implements SearchIndex {
  readonly rootDir: string;
  readonly dbPath: string;
  /** Where registered pool folders are indexed. */
  readonly foldersPath: string;
  readonly workspace: IndexDatabase;
  readonly workspaceSource: IndexSource;
  private readonly chunkOptions: Required<ChunkOptions>;
  private readonly hybrid: HybridSearch | undefined;
  private folderIndex: IndexDatabase | undefined;
  private closed = false;

  constructor(rootDir: string, options: SearchIndexOptions = {}) {
    this.rootDir = resolve(rootDir);
    this.dbPath = join(cairnIndexPath(this.rootDir), SEARCH_INDEX_FILENAME);
    this.foldersPath = join(cairnIndexPath(this.rootDir), POOL_INDEX_FILENAME);
    this.chunkOptions = { maxTokens: 400, overlapTokens: 60, ...options.chunk };
    this.workspace = new IndexDatabase(this.dbPath, this.chunkOptions);
    this.workspaceSource = workspaceSource(this.rootDir);
    this.hybrid = hybridSearchOf(options);
  }

  /** The index of registered pool folders, opened on first use. */
  folders(): IndexDatabase {
    // A closed index reports it through the workspace database instead of reopening files.
    if (this.closed) return this.workspace;
    this.folderIndex ??= new IndexDatabase(this.foldersPath, this.chunkOptions);
    return this.folderIndex;
  }

  /** Forgets indexed pool folders not in `keep`; opens nothing that does not exist yet. */
  pruneFolders(keep: string[]): void {
    if (this.folderIndex || existsSync(this.foldersPath)) this.folders().prunePools(keep);
  }

  refresh(): Promise<SearchIndexRefreshStats> {
    return this.workspace.refreshPool(this.workspaceSource);
  }

  /** Drops and rebuilds the index, and with an embedder every vector (its errors are thrown). */
  async rebuild(): Promise<SearchIndexRefreshStats> {
    const stats = await this.workspace.refreshPool(this.workspaceSource, true);
    if (this.hybrid)
      await vectorStoreFor(this.workspace, this.hybrid.embedder).sync(WORKSPACE_SOURCE);
    return stats;
  }

  search(input: MemorySearchOptions): Promise<FileSearchResult[]> {
    return this.searchWith(input, this.hybrid);
  }

  /**
   * Search with an explicit hybrid configuration (the shared index serves
   * backends with different embedders). With one, every result carries
   * `metadata.mode`, `keyword` plus `embedderError` when the embedder failed.
   */
  async searchWith(
    input: MemorySearchOptions,
    hybrid: HybridSearch | undefined,
  ): Promise<FileSearchResult[]> {
    const options = parseInput(memorySearchOptionsSchema, input, 'search options');
    const project = projectGlossaryIndex(this.rootDir);
    const plan = await planQuery(options.query, project ? { project } : {});
    if (plan.terms.length === 0) return [];
    const query = { pool: WORKSPACE_SOURCE, plan, limit: options.limit };
    const { hits, info } = await searchPool(
      this.workspace,
      this.workspaceSource,
      {
        query: { ...query, ...chunkQueryOf(searchIndexFilters(options.filters)).query },
        text: options.query,
      },
      hybrid,
    );
    const around = snippetWords(plan);
    return hits.map((hit) => {
      const result = toSearchResult(hit, around, options.snippetChars);
      return hybrid ? { ...result, metadata: info } : result;
    });
  }

  close(): void {
    this.closed = true;
    this.workspace.close();
    this.folderIndex?.close();
  }

  /** Closes and deletes both index files (after SQLite reported them damaged). */
  removeFiles(): void {
    this.close();
    removeDatabaseFiles(this.dbPath);
    removeDatabaseFiles(this.foldersPath);
  }
}

/**
 * Opens the search index of the project at `rootDir`, creating
 * `.cairn/index/search.sqlite` when needed. Throws BACKEND_UNAVAILABLE when
 * better-sqlite3 cannot be loaded, and SQLite's error when the file cannot
 * be opened.
 */
export function openSearchIndex(rootDir: string, options: SearchIndexOptions = {}): SearchIndex {
  return new ProjectSearchIndex(rootDir, options);
}

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

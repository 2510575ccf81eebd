import { existsSync } from 'node:fs';
import { boundSnippet, createFileBackend, queryTerms } from '@cairn/backend-file';
import {
  CairnError,
  formatError,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  type MemorySearchOptions,
  type MemorySearchResult,
  memorySearchOptionsSchema,
  memoryWorkspacePath,
  parseInput,
} from '@cairn/core';
import type { RankedHit } from './hybrid-search';
import { LancedbIndex } from './lancedb-index';
import { databaseUri, type LancedbBackendOptions, resolveLancedbOptions } from './lancedb-options';
import { searchFilterClauses } from './query-filters';
import type { LancedbRefreshStats, PoolTarget } from './refresh-pool';
import { WORKSPACE_SOURCE, workspaceSource } from './sources';
import { sqlAnd } from './sql';

/** Storage is the file backend's: markdown, atomic writes. Only search differs. */
export const lancedbCapabilities = {
  readable: true,
  writable: true,
  supportsAtomicWrite: true,
  hasConflictResolution: false,
  persistent: true,
} as const satisfies MemoryBackendCapabilities;

export interface LancedbBackend extends MemoryBackend {
  /** Fallbacks and rebuilds the backend went through, each once. */
  readonly warnings: readonly string[];
  /** Brings the workspace's LanceDB table up to date with the markdown (incremental). */
  refresh(rootDir: string): Promise<LancedbRefreshStats>;
  /** Drops the table and indexes every workspace file again (`cairn reindex`). */
  rebuild(rootDir: string): Promise<LancedbRefreshStats>;
  /** Closes every open database. */
  close(): Promise<void>;
}

/** Collects distinct warnings and tells the caller once about each. */
export function warningSink(onWarning?: (message: string) => void) {
  const warnings: string[] = [];
  const warn = (message: string) => {
    if (warnings.includes(message)) return;
    warnings.push(message);
    onWarning?.(message);
  };
  return { warnings, warn };
}

/** Whether a LanceDB failure should fall back to the file index (anything but bad input). */
export function canFallBack(error: unknown): boolean {
  return !(CairnError.isInstance(error) && error.code === 'INVALID_INPUT');
}

export function workspaceTarget(rootDir: string): PoolTarget {
  return {
    id: WORKSPACE_SOURCE,
    tier: 'hot',
    base: memoryWorkspacePath(rootDir),
    source: workspaceSource(rootDir),
  };
}

function toSearchResult(hit: RankedHit, terms: string[], snippetChars: number): MemorySearchResult {
  return {
    path: hit.path,
    startLine: hit.start_line,
    endLine: hit.end_line,
    score: hit.score,
    snippet: boundSnippet(hit.text, terms, snippetChars),
    kind: hit.kind === 'UNIT' ? 'UNIT' : 'RAW',
    ...(hit.memory_id ? { memoryId: hit.memory_id } : {}),
    ...(hit.category ? { category: hit.category } : {}),
    ...(hit.created_at ? { createdAt: hit.created_at } : {}),
  };
}

/**
 * A MemoryBackend whose storage is the file backend (markdown in
 * `.cairn/memory/` stays the source of truth) and whose search is hybrid
 * vector + full-text over a LanceDB table derived from that markdown. When
 * LanceDB is missing or fails, search falls back to the file index with a
 * warning.
 */
export function createLancedbBackend(options: LancedbBackendOptions = {}): LancedbBackend {
  const resolved = resolveLancedbOptions(options);
  const { warnings, warn } = warningSink(resolved.onWarning);
  const file = createFileBackend({ getMaxLines: resolved.getMaxLines, onWarning: warn });
  const indexes = new Map<string, LancedbIndex>();
  const indexFor = (rootDir: string) => {
    const uri = databaseUri(rootDir, resolved.uri);
    let index = indexes.get(uri);
    if (!index) {
      index = new LancedbIndex(uri, resolved, warn);
      indexes.set(uri, index);
    }
    return index;
  };

  async function search(
    rootDir: string,
    input: MemorySearchOptions,
  ): Promise<MemorySearchResult[]> {
    const parsed = parseInput(memorySearchOptionsSchema, input, 'search options');
    if (!existsSync(memoryWorkspacePath(rootDir))) return [];
    const terms = queryTerms(parsed.query);
    try {
      const index = indexFor(rootDir);
      await index.refresh([workspaceTarget(rootDir)]);
      const hits = await index.search({
        text: parsed.query,
        terms,
        where: sqlAnd(searchFilterClauses(WORKSPACE_SOURCE, parsed.filters)),
        limit: parsed.limit,
      });
      return hits
        .slice(0, parsed.limit)
        .map((hit) => toSearchResult(hit, terms, parsed.snippetChars));
    } catch (error) {
      if (!canFallBack(error)) throw error;
      warn(`LanceDB search failed, using the file index instead: ${formatError(error)}`);
      return file.search!(rootDir, parsed);
    }
  }

  return {
    warnings,
    type: 'lancedb',
    name: 'LanceDB (markdown in .cairn/memory/, hybrid search in LanceDB)',
    capabilities: lancedbCapabilities,
    read: (rootDir) => file.read(rootDir),
    write: (rootDir, content) => file.write(rootDir, content),
    get: (rootDir, getOptions) => file.get!(rootDir, getOptions),
    exists: (rootDir) => file.exists!(rootDir),
    search,
    refresh: (rootDir) => indexFor(rootDir).refresh([workspaceTarget(rootDir)]),
    rebuild: (rootDir) => indexFor(rootDir).refresh([workspaceTarget(rootDir)], true),
    async close() {
      const open = [...indexes.values()];
      indexes.clear();
      await Promise.all(open.map((index) => index.close()));
    },
  };
}

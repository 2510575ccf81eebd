import { createFileBackend } from '@cairn/backend-file';
import {
  CairnError,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  type MemorySearchResult,
} from '@cairn/core';
import {
  boundSnippet,
  fileStorage,
  searchResultOf,
  searchWithFileFallback,
  WORKSPACE_POOL_ID,
  warningSink,
  workspacePoolTarget,
} from '@cairn/index-kit';
import type { RankedHit } from './hybrid-search';
import { LancedbIndex } from './lancedb-index';
import { databaseUri, type LancedbBackendOptions, resolveLancedbOptions } from './lancedb-options';
import { searchFilterClauses } from './query-filters';
import type { LancedbRefreshStats } from './refresh-pool';
import { sqlAnd } from './sql';
import { placeOf } from './table-schema';

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

/** Whether a LanceDB failure should fall back to the file index (anything but bad input). */
export function canFallBack(error: unknown): boolean {
  return !(CairnError.isInstance(error) && error.code === 'INVALID_INPUT');
}

function toSearchResult(hit: RankedHit, terms: string[], snippetChars: number): MemorySearchResult {
  return searchResultOf(placeOf(hit), hit.score, boundSnippet(hit.text, terms, snippetChars));
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

  const search = searchWithFileFallback(
    { engine: 'LanceDB', file, warn, canFallBack },
    async (rootDir, parsed, terms) => {
      const index = indexFor(rootDir);
      await index.refresh([workspacePoolTarget(rootDir)]);
      const hits = await index.search({
        text: parsed.query,
        terms,
        where: sqlAnd(searchFilterClauses(WORKSPACE_POOL_ID, parsed.filters)),
        limit: parsed.limit,
      });
      return hits
        .slice(0, parsed.limit)
        .map((hit) => toSearchResult(hit, terms, parsed.snippetChars));
    },
  );

  return {
    warnings,
    type: 'lancedb',
    name: 'LanceDB (markdown in .cairn/memory/, hybrid search in LanceDB)',
    capabilities: lancedbCapabilities,
    ...fileStorage(file),
    search,
    refresh: (rootDir) => indexFor(rootDir).refresh([workspacePoolTarget(rootDir)]),
    rebuild: (rootDir) => indexFor(rootDir).refresh([workspacePoolTarget(rootDir)], true),
    async close() {
      const open = [...indexes.values()];
      indexes.clear();
      await Promise.all(open.map((index) => index.close()));
    },
  };
}

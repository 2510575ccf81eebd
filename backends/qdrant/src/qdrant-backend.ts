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
import { searchFilter } from './qdrant-filters';
import { type ChunkHit, QdrantIndex } from './qdrant-index';
import { defaultRepo, type QdrantBackendOptions, resolveQdrantOptions } from './qdrant-options';
import type { QdrantRefreshStats } from './qdrant-refresh';

/** Storage is the file backend's (markdown, atomic writes); only search goes to Qdrant. */
export const qdrantCapabilities = {
  readable: true,
  writable: true,
  supportsAtomicWrite: true,
  hasConflictResolution: false,
  persistent: true,
} as const satisfies MemoryBackendCapabilities;

export interface QdrantBackend extends MemoryBackend {
  /** Fallbacks the backend went through, each once. */
  readonly warnings: readonly string[];
  /** Brings the project's points up to date with the workspace markdown (incremental). */
  refresh(rootDir: string): Promise<QdrantRefreshStats>;
  /** Deletes the project's points and indexes the workspace again (`cairn reindex`). */
  rebuild(rootDir: string): Promise<QdrantRefreshStats>;
}

/** Whether a Qdrant failure falls back to the file index: anything but the caller's bad input. */
export function canFallBack(error: unknown): boolean {
  return !(CairnError.isInstance(error) && error.code === 'INVALID_INPUT' && !error.details.status);
}

function toSearchResult(hit: ChunkHit, terms: string[], snippetChars: number): MemorySearchResult {
  const p = hit.payload;
  const place = {
    path: p.path,
    startLine: p.start_line,
    endLine: p.end_line,
    kind: p.kind,
    memoryId: p.memory_id,
    category: p.category,
    createdAt: p.created_at,
  };
  return searchResultOf(place, hit.score, boundSnippet(p.text, terms, snippetChars));
}

/** Candidates fetched when a path prefix can only be checked after the query. */
const PREFIX_CANDIDATES = 500;

/**
 * A MemoryBackend whose storage is the file backend (markdown in
 * `.cairn/memory/` stays the source of truth) and whose search is hybrid
 * dense + sparse recall over the project's partition of a Qdrant
 * collection. When Qdrant is missing, unreachable or failing, search falls
 * back to the file index with a warning.
 */
export function createQdrantBackend(options: QdrantBackendOptions = {}): QdrantBackend {
  const resolved = resolveQdrantOptions(options);
  const { warnings, warn } = warningSink(resolved.onWarning);
  const file = createFileBackend({ getMaxLines: resolved.getMaxLines, onWarning: warn });
  const indexes = new Map<string, QdrantIndex>();
  const indexFor = (rootDir: string) => {
    const repo = resolved.repo ?? defaultRepo(rootDir);
    let index = indexes.get(repo);
    if (!index) {
      index = new QdrantIndex(resolved, repo, warn);
      indexes.set(repo, index);
    }
    return index;
  };

  const search = searchWithFileFallback(
    { engine: 'Qdrant', file, warn, canFallBack },
    async (rootDir, parsed, terms) => {
      const index = indexFor(rootDir);
      await index.refresh([workspacePoolTarget(rootDir)]);
      const { filter, pathPrefix } = searchFilter(
        index.partition,
        WORKSPACE_POOL_ID,
        parsed.filters,
      );
      const hits = await index.search({
        text: parsed.query,
        filter,
        limit: pathPrefix ? PREFIX_CANDIDATES : parsed.limit,
      });
      return hits
        .filter((hit) => !pathPrefix || hit.payload.path.startsWith(pathPrefix))
        .slice(0, parsed.limit)
        .map((hit) => toSearchResult(hit, terms, parsed.snippetChars));
    },
  );

  return {
    warnings,
    type: 'qdrant',
    name: 'Qdrant (markdown in .cairn/memory/, hybrid search in a Qdrant collection)',
    capabilities: qdrantCapabilities,
    ...fileStorage(file),
    search,
    refresh: (rootDir) => indexFor(rootDir).refresh([workspacePoolTarget(rootDir)]),
    rebuild: (rootDir) => indexFor(rootDir).refresh([workspacePoolTarget(rootDir)], true),
  };
}

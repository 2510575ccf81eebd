import { join } from 'node:path';
import type { MemoryPoolDefinition, MemoryResult, NormalizedMemoryQuery } from '@cairn/core';
import {
  boundSnippet,
  folderSource,
  type IndexSource,
  isDirectory,
  matchesFilters,
  recallMetadata,
} from '@cairn/index-kit';
import { searchTerms, snippetTerms } from './fts-query';
import { type HybridSearch, type SearchModeInfo, searchPool } from './hybrid-search';
import type { IndexDatabase } from './index-database';
import type { ChunkHit } from './index-query';
import type { ProjectSearchIndex } from './search-index';
import { splitFilters } from './split-filters';

const SNIPPET_CHARS = 320;

/** Where a pool's hits come from: the workspace index, or the pool-folder index. */
export interface PoolTarget {
  pool: MemoryPoolDefinition;
  /** Absolute folder the hit paths are relative to. */
  base: string;
  /** True for the builtin workspace pool (indexed as the workspace files only). */
  workspace: boolean;
}

function toResult(
  target: PoolTarget,
  hit: ChunkHit,
  terms: string[],
  info?: SearchModeInfo,
): MemoryResult {
  const { pool, base } = target;
  return {
    id: `${pool.id}:${hit.path}:${hit.startLine}`,
    uri: join(base, ...hit.path.split('/')),
    score: hit.score,
    snippet: boundSnippet(hit.text, terms, SNIPPET_CHARS),
    metadata: { ...recallMetadata(pool, hit), ...info },
  };
}

/**
 * Recall from one pool through the index: refresh that pool (stat calls
 * only when nothing changed), then a bm25 (or, with an embedder, hybrid)
 * query with the filters the index can apply; the rest are checked on
 * each hit. With an embedder, metadata states the mode and any fallback.
 */
export async function recallIndexedPool(
  index: ProjectSearchIndex,
  target: PoolTarget,
  query: NormalizedMemoryQuery,
  hybrid?: HybridSearch,
): Promise<MemoryResult[]> {
  const terms = searchTerms(query.query);
  const split = splitFilters(target.pool, query.filters);
  if (terms.length === 0 || !split.poolMatches || !isDirectory(target.base)) return [];
  let database: IndexDatabase;
  let source: IndexSource;
  if (target.workspace) {
    database = index.workspace;
    source = index.workspaceSource;
  } else {
    database = index.folders();
    source = folderSource(target.base);
  }
  const around = snippetTerms(terms);
  const postFilter =
    Object.keys(split.rest).length > 0
      ? (hit: ChunkHit) => matchesFilters(toResult(target, hit, around).metadata ?? {}, split.rest)
      : undefined;
  const chunkQuery = {
    pool: source.pool,
    terms,
    limit: query.limit,
    oneOf: split.oneOf,
    excludeDeprecated: !split.reviewFiltered,
  };
  const { hits, info } = await searchPool(
    database,
    source,
    { query: chunkQuery, text: query.query, ...(postFilter ? { postFilter } : {}) },
    hybrid,
  );
  return hits.map((hit) => toResult(target, hit, around, hybrid ? info : undefined));
}

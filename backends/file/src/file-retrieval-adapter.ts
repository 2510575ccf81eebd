import type { RetrievalAdapterCapabilities, RetrievalAdapterFactoryOptions } from '@cairn/core';
import {
  createIndexedRetrievalAdapter,
  type IndexedAdapterComposition,
  type IndexedRetrievalAdapter,
  recallCapabilities,
  type SearchIndexRefreshStats,
} from '@cairn/index-kit';
import { fileIndex } from './file-backend';

export const fileRetrievalCapabilities = recallCapabilities(
  fileIndex,
) satisfies RetrievalAdapterCapabilities;

/**
 * The builtin retrieval adapter (seed 001's filesystem fallback): bm25
 * recall through the SQLite index in `.cairn/index/` (the workspace, and
 * registered pool folders in a second file), hybrid bm25 + vector recall
 * when `options.embedder` is given, or a plain keyword scan when the index
 * is unavailable or the workspace does not exist yet.
 */
export function createFileRetrievalAdapter(
  options: RetrievalAdapterFactoryOptions,
  composition: Omit<IndexedAdapterComposition<SearchIndexRefreshStats>, 'fallback'> = {},
): IndexedRetrievalAdapter<SearchIndexRefreshStats> {
  return createIndexedRetrievalAdapter(fileIndex, options, composition);
}

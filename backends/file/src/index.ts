import pkg from '../package.json' with { type: 'json' };

export {
  createFileBackend,
  type FileBackend,
  type FileBackendOptions,
  fileCapabilities,
  fileIndex,
} from './file-backend';
export { FileIndex } from './file-index';
export { type FileIndexOptions, parseFileOptions } from './file-options';
export { createFileRetrievalAdapter, fileRetrievalCapabilities } from './file-retrieval-adapter';
export {
  DEFAULT_HYBRID_RANKING,
  type HybridRanking,
  mmrRerank,
  recencyFactor,
} from './hybrid-rank';
export type { HybridSearchOptions, SearchModeInfo } from './hybrid-search';
export {
  closeSearchIndexes,
  type FileSearchResult,
  followWorkspaceChanges,
  indexedPoolCounts,
  openSearchIndex,
  POOL_INDEX_FILENAME,
  SEARCH_INDEX_FILENAME,
  type SearchIndex,
  type SearchIndexOptions,
  type SourceChangeFeed,
} from './search-index';

export const VERSION: string = pkg.version;

import pkg from '../package.json' with { type: 'json' };

export { type ChunkPlace, recallMetadata, searchResultOf } from './chunk-place';
export { embedInBatches } from './embed-batches';
export {
  createFileBackend,
  type FileBackend,
  type FileBackendOptions,
  fileCapabilities,
} from './file-backend';
export { createFileRetrievalAdapter, fileRetrievalCapabilities } from './file-retrieval-adapter';
export {
  type FileFallback,
  type FileStorage,
  fileStorage,
  type ParsedSearchOptions,
  searchWithFileFallback,
} from './file-storage';
export {
  DEFAULT_HYBRID_RANKING,
  type HybridRanking,
  mmrRerank,
  recencyFactor,
} from './hybrid-rank';
export type { HybridSearchOptions, SearchModeInfo } from './hybrid-search';
export {
  chunkFile,
  MAX_FILES_PER_FOLDER,
  readFolderFile,
  readWorkspaceFile,
  type SourceFile,
} from './index-sources';
export { boundSnippet, queryTerms, type ScanHit, scanMarkdown } from './keyword-scan';
export { type InvalidOption, optionChecks } from './option-checks';
export {
  byScore,
  coversFolder,
  isDirectory,
  poolFolder,
  poolSummaries,
  type RegisteredPools,
  registerPoolDefinitions,
  WORKSPACE_POOL_ID,
  workspacePoolOf,
} from './pool-definitions';
export { eligible, matchesFilters } from './pool-filters';
export {
  folderPoolSource,
  type PoolSource,
  type PoolTarget,
  workspacePoolSource,
  workspacePoolTarget,
} from './pool-sources';
export { type ReviewStates, reviewStates } from './search-filters';
export {
  type FileSearchResult,
  openSearchIndex,
  POOL_INDEX_FILENAME,
  SEARCH_INDEX_FILENAME,
  type SearchIndex,
  type SearchIndexOptions,
  type SearchIndexRefreshStats,
} from './search-index';
export { closeSearchIndexes } from './search-index-cache';
export {
  isDamagedDatabase,
  loadSqlite,
  openSqlite,
  SQLITE_DRIVER_FIX,
  type SqliteDatabase,
  type SqliteOpenOptions,
  type SqliteStatement,
  sqliteDriverProblem,
} from './sqlite-driver';
export { type WarningSink, warningSink } from './warning-sink';

export const VERSION: string = pkg.version;

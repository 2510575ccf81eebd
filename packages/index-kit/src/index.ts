export { type ChunkPlace, recallMetadata, searchResultOf } from './chunk-place';
export { embedInBatches } from './embed-batches';
export {
  type FallbackBackend,
  type FileFallback,
  type FileStorage,
  fileStorage,
  type ParsedSearchOptions,
  searchWithFileFallback,
} from './file-storage';
export {
  chunkFile,
  folderSource,
  type IndexSource,
  type ListMarkdownOptions,
  listMarkdownFiles,
  listWorkspaceFiles,
  MAX_FILES_PER_FOLDER,
  readFolderFile,
  readWorkspaceFile,
  type SourceFile,
  WORKSPACE_SOURCE,
  workspaceSource,
} from './index-sources';
export { boundSnippet, queryTerms, type ScanHit, scanMarkdown } from './keyword-scan';
export { type InvalidOption, isEmbedder, optionChecks } from './option-checks';
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
export type { SearchIndexRefreshStats } from './refresh-stats';
export { type ReviewStates, reviewStates } from './review-states';
export { type WarningSink, warningSink } from './warning-sink';

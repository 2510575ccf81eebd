export {
  type AdapterComposition,
  type BackendComposition,
  defineIndexBackend,
  type IndexBackendEntries,
} from './define-index-backend';
export {
  DOCUMENTS_POOL_ID,
  type DocumentSourceOptions,
  documentPoolSource,
  gitignoreMatcher,
  globMatcher,
  listDocuments,
} from './document-source';
export { embedInBatches } from './embed-batches';
export {
  CHUNK_FILTER_COLUMNS,
  passesIndexFilters,
  RECALL_FILTER_KEYS,
  type ReviewStates,
  recallFiltersOfSearch,
  recallIndexFilters,
  reviewStates,
  type SplitIndexFilters,
  searchIndexFilters,
  splitIndexFilters,
  WORKSPACE_TIERS,
  wantedTiers,
  workspaceTierOf,
} from './index-filters';
export {
  type ChunkPlace,
  candidateCount,
  hitMetadata,
  POST_FILTER_CANDIDATES,
  RECALL_SNIPPET_CHARS,
  recallMetadata,
  recallResultOfHit,
  recordMetadata,
  searchResultOf,
  searchResultOfHit,
  searchResultOfRecall,
} from './index-hits';
export {
  type BackendFallback,
  canFallBackByDefault,
  createIndexedBackend,
  type FallbackBackend,
  type IndexedBackend,
  indexedBackendCapabilities,
  type WarningSink,
  warningSink,
} from './indexed-backend';
export {
  type AdapterFallback,
  createIndexedRetrievalAdapter,
  type IndexedAdapterComposition,
  type IndexedRetrievalAdapter,
  recallCapabilities,
  type SourcePool,
} from './indexed-retrieval-adapter';
export { type OptionalModuleSpec, optionalModule } from './optional-module';
export {
  byScore,
  coversFolder,
  eligible,
  folderPoolSource,
  folderSource,
  type IndexSource,
  isDirectory,
  type ListMarkdownOptions,
  listMarkdownFiles,
  MAX_FILES_PER_FOLDER,
  matchesFilters,
  type PoolSource,
  type PoolTarget,
  poolFolder,
  poolSummaries,
  type RegisteredPools,
  readFolderFile,
  readWorkspaceFile,
  registerPoolDefinitions,
  type SourceFile,
  WORKSPACE_POOL_ID,
  WORKSPACE_SOURCE,
  workspacePoolOf,
  workspacePoolSource,
  workspacePoolTarget,
  workspaceSource,
} from './pool-definitions';
export {
  compoundExpansions,
  EXPANSION_WEIGHTS,
  type ExpansionOptions,
  expandQuery,
  formExpansions,
  type GlossaryIndex,
  indexGlossary,
  MAX_EXPANSIONS,
  projectGlossaryIndex,
  type QueryExpansion,
  softwareGlossary,
} from './query-expansion';
export {
  boundSnippet,
  type CodeQueryTerms,
  camelParts,
  codeQueryTerms,
  derivedTerms,
  isStopWord,
  queryTerms,
  type ScanHit,
  scanMarkdown,
} from './query-terms';
export { addRefreshStats, type SearchIndexRefreshStats } from './refresh-stats';
export { relativeDateTerms } from './relative-dates';
export { renderedViews } from './rendered-views';
export {
  type ChunkFileOptions,
  chunkFile,
  hasChanges,
  type PoolChanges,
  type PoolFileState,
  type PoolFileUpdate,
  type PoolSink,
  type PoolSync,
  poolSyncSource,
  type StoredFileState,
  type SyncPoolOptions,
  type SyncSource,
  syncPool,
} from './sync-pool';
export { baseForm, wordForms, wordStem } from './word-forms';
export {
  DEFAULT_GET_MAX_LINES,
  type WorkspaceStorage,
  workspaceStorage,
} from './workspace-storage';

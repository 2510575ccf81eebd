/** Recall over every pool: the index adapter and the engine pools (lineage, history, documents), merged. */
export { type CompositeRecall, createCompositeRecall } from './composite-recall';
export { documentsPool } from './documents-pool';
export {
  type EnginePool,
  type LineageAccess,
  type RecallContext,
  TRANSCRIPTS_POOL_ID,
  type TranscriptLookup,
} from './engine-pool';
export { historyEnginePool } from './history-engine-pool';
export { createHistoryRecords, type HistoryRecords } from './history-pool';
export { createLineageAccess } from './lineage-pools';
export {
  recallQueryOfSearch,
  type SearchHit,
  type SearchRequest,
  searchHitsOfRecall,
} from './recall-search';

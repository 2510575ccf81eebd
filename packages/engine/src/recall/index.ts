/** Recall over every pool: the index adapter and the engine pools (lineage, history records), merged; a search as a recall query. */
export {
  type CompositeRecall,
  createCompositeRecall,
  recallQueryOfSearch,
  type SearchHit,
  type SearchRequest,
  searchHitsOfRecall,
} from './composite-recall';
export {
  type EnginePool,
  type LineageAccess,
  type RecallContext,
  TRANSCRIPTS_POOL_ID,
  type TranscriptLookup,
} from './engine-pool';
export { createHistoryRecords, type HistoryRecords } from './history-pool';
export { createLineageAccess } from './lineage-pools';

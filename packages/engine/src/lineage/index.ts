export {
  type CondenseResult,
  type CondenseThreadOptions,
  condenseThread,
  type Summarize,
} from './condense-thread';
export {
  EXPAND_MAX_ENTRIES,
  EXPAND_MAX_ENTRY_CHARS,
  type ExcerptEntry,
  type ExpandOptions,
  expandNode,
  type NodeExpansion,
  type TranscriptExcerpt,
} from './expand-node';
export { EXTRACTIVE_SOURCE, extractiveSummary, type SummaryText } from './extractive-summary';
export { LINEAGE_SCHEMA_VERSION } from './lineage-migrations';
export {
  LINEAGE_DB_FILENAME,
  type LineageStore,
  type LineageStoreOptions,
  lineageDatabasePath,
  openLineageStore,
} from './lineage-store';
export {
  type AddNodeInput,
  type AppendedEntry,
  type AppendTranscriptEntryInput,
  CONDENSABLE_KINDS,
  type CondenseRootsInput,
  type Instant,
  type KeepTranscriptHits,
  type ListNodesFilter,
  type RankedTranscriptHit,
  type SummaryFailureInput,
  type SummaryRetry,
  TEMPORAL_NODE_KINDS,
  type TemporalNode,
  type TemporalNodeKind,
  TRANSCRIPT_ROLES,
  type Transcript,
  type TranscriptEntry,
  type TranscriptHit,
  type TranscriptReadOptions,
  type TranscriptRole,
  type TranscriptSearchOptions,
} from './lineage-types';
export type { LineageAgent } from './node-ids';
export { type TranscriptCandidate, transcriptCandidates } from './transcript-candidates';
export { MIN_TRANSCRIPT_SIMILARITY, rankTranscriptsByMeaning } from './transcript-semantic';

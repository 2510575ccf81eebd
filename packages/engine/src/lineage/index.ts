/** Tier 3: the append-only transcript and temporal-node store (`.cairn/state/lineage.db`). */
export { condenseThread } from './condense-thread';
export { type ExpandOptions, expandNode, type NodeExpansion } from './expand-node';
export { openDatabase, type SqliteDatabase } from './lineage-database';
export { LINEAGE_MIGRATIONS, migrateLineageDatabase } from './lineage-migrations';
export {
  LINEAGE_DB_FILENAME,
  type LineageStore,
  lineageDatabasePath,
  openLineageStore,
} from './lineage-store';
export type {
  AppendedEntry,
  TemporalNode,
  TemporalNodeKind,
  TranscriptEntry,
  TranscriptHit,
} from './lineage-types';
export type { LineageAgent } from './node-ids';
export type { NodeHead } from './node-repository';
export { toolEventText, toolInputPart } from './tool-event-text';
export { queryTerms } from './transcript-query';
export { readEntryText } from './transcript-repository';
export { rankTranscriptsByMeaning } from './transcript-semantic';

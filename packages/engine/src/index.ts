import pkg from '../package.json' with { type: 'json' };

// The harness contract is core's (contracts/harness.ts); install helpers are @cairn/harness-kit's.
export type {
  HarnessAdapter,
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
} from '@cairn/core';
export { backendOptionsFor, registerBuiltins } from './builtins';
export type {
  Cairn,
  CairnStatus,
  DoctorReport,
  HeadView,
  InitResult,
  MemoryApi,
  ReindexStats,
  WorkingApi,
  WorkingHealth,
} from './cairn-api';
export {
  type CachedEmbedder,
  createCachedEmbedder,
  createOpenAiEmbedder,
  createTransformersEmbedder,
  EMBEDDING_CACHE_FILENAME,
  type EmbedderSettings,
  embedderFromSettings,
  embeddingsUrl,
  type OpenAiEmbedderOptions,
  rankingFromSettings,
  TRANSFORMERS_PACKAGE,
  type TransformersEmbedderOptions,
  type TransformersModule,
} from './embeddings';
/** The one place harness events run: project discovery, kept projects, fail-open, close. */
export {
  eventProjectRoot,
  type HostEvent,
  type HostOutcome,
  type LifecycleHost,
  type LifecycleHostOptions,
  openLifecycleHost,
  type ProjectLifetime,
} from './host';
/** Maintenance (docs/MAINTENANCE.md): insight extraction, proposals, staleness. */
export * from './maintenance';
export {
  type MemorySearch,
  openMemorySearch,
  type SearchHit,
  type SearchRequest,
  searchMemory,
} from './memory-search';
export { type OpenCairnOptions, openCairn } from './open-cairn';
export {
  importOptionalModule,
  OPTIONAL_BACKEND_PACKAGES,
  setModuleImporter,
} from './optional-packages';
export {
  findProjectRoot,
  locateProject,
  notInitializedError,
  type ProjectLocation,
} from './project-root';
export type { AddUnitInput } from './units/unit-input';
export type { UnitPatch, UnitPatchOp, UnitPatchResult } from './units/unit-patch';
export type {
  AddUnitResult,
  DuplicateResult,
  FailedResult,
  MemoryRecord,
  RemoveUnitResult,
  ReplaceUnitResult,
  UnitErrorCode,
} from './units/unit-results';
export type { ListUnitsFilter, ReviewUnitResult } from './units/unit-store';

export const VERSION: string = pkg.version;
export {
  type BundledBetterSqlite3,
  SQLITE_DRIVER_FIX,
  settleWriteAheadLogs,
  sqliteDriverProblem,
  useBundledBetterSqlite3,
  usingBundledBetterSqlite3,
} from '@cairn/sqlite';
/** Backup and restore: `cairn export` and `cairn import` (docs/TEAMS.md#backup-and-restore). */
export * from './backup';
export { quickCheck, sqliteDriverFinding } from './doctor/database-checks';
export { type DoctorArea, type DoctorFinding, needsUser } from './doctor/doctor-finding';
export { linkFindings } from './doctor/link-findings';
export { settingsFindings } from './doctor/settings-checks';
export { formatBytes, type StoreSize, storeSizes } from './doctor/store-sizes';
export { MAX_MEMORY_FILE_BYTES, RUNAWAY_HEAD_FACTOR } from './doctor/workspace-checks';
/** Task history: error signatures and failure detection of tool events. */
export * from './history';
export type {
  ExpandOptions,
  LineageAgent,
  LineageStore,
  NodeExpansion,
  TemporalNode,
  TemporalNodeKind,
  Transcript,
  TranscriptEntry,
} from './lineage';
/** Tier 3 read back as stored (the bench's lossless check reads transcripts through it). */
export { openLineageStore } from './lineage';
/** Context packs: the one pipeline every injection goes through (docs/PACKS.md). */
export * from './packs';
export { assertProjectLayout } from './project-layout';
export type { StructuredSummary, Summarizer } from './summaries';
export {
  createExtractiveSummarizer,
  createOpenAiSummarizer,
  harnessSummaryToStructured,
} from './summaries';
export { UNIT_ERROR_CODES } from './units/unit-results';
export { lastPackReceipts } from './working/last-pack-receipts';
export type { LifecycleResult, ProfilePackPreview } from './working/lifecycle';
export { type LifecycleFailure, logLifecycleFailure } from './working/lifecycle-log';
export {
  type InjectionEvent,
  type InjectionReceipt,
  PACK_RECEIPTS_KEPT,
  type ReceiptQuery,
} from './working/pack-receipts';
export { defaultThreadKey, explicitThreadKey } from './working/thread-key';
export type { ThreadHeadState } from './working/thread-state';
export { createWorkspaceWriter, type WorkspaceWriter } from './workspace-writer';

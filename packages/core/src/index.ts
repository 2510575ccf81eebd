export { ATOMIC_TEMP_PREFIX, writeFileAtomic } from './atomic-write';
export {
  booleanOption,
  chunkOption,
  embedderOption,
  embedderOrDefault,
  functionOption,
  type InvalidOption,
  indexCommonOptions,
  integerOption,
  invalidBackendOption,
  isEmbedder,
  MAX_HASH_DIMENSIONS,
  MIN_HASH_DIMENSIONS,
  numberOption,
  oneOfOption,
  parseBackendOptions,
  repoOption,
  stringOption,
  stringRecordOption,
} from './contracts/backend-options';
export { type Embedder, embedderKey } from './contracts/embedder';
export {
  type CellEvidence,
  type EventFidelity,
  type FidelityCell,
  HARNESS_EVENTS,
  type HarnessAdapter,
  type HarnessDeclaration,
  type HarnessDelivery,
  type HarnessDeliveryContext,
  type HarnessDeliveryResult,
  type HarnessEvent,
  type HarnessFileChange,
  type HarnessInstallOptions,
  type HarnessInstallReport,
  type HarnessStatus,
  type InstallScope,
} from './contracts/harness';
export { createHashEmbedder, type HashEmbedderOptions } from './contracts/hash-embedder';
export {
  FIX_PATTERN_ID_KIND,
  type IdKind,
  type IdMatch,
  idMatchMessage,
  idPrefixOf,
  idPrefixRange,
  isWholeId,
  MIN_ID_PREFIX_CHARS,
  matchIdPrefix,
  NODE_ID_KIND,
  PROPOSAL_ID_KIND,
  resolveIdPrefix,
  UNIT_ID_KIND,
} from './contracts/id-prefix';
export {
  type CompactionCompleteInput,
  compactionCompleteSchema,
  FINAL_ANSWER_CHARS,
  LIFECYCLE_EVENT_NAMES,
  LIFECYCLE_EVENTS,
  type LifecycleApi,
  type LifecycleCliName,
  type LifecycleEvent,
  type LifecycleResult,
  lifecycleEventByCliName,
  type PreCompactionInput,
  parseLifecycleInput,
  preCompactionSchema,
  type SessionEndInput,
  type SessionStartInput,
  sessionEndSchema,
  sessionStartSchema,
  type ToolUseInput,
  toolUseSchema,
  type UserPromptSubmitInput,
  userPromptSubmitSchema,
} from './contracts/lifecycle';
export type {
  MemoryBackend,
  MemoryBackendCapabilities,
  MemoryBackendConfig,
  MemoryGetOptions,
  MemoryGetResult,
  MemoryIndexStats,
  MemoryKind,
  MemoryReadResult,
  MemorySearchFilters,
  MemorySearchOptions,
  MemorySearchResult,
  MemoryWriteResult,
} from './contracts/memory-backend';
export type {
  MemoryIndex,
  MemoryIndexCapabilities,
  MemoryIndexCommonOptions,
  MemoryIndexContext,
  MemoryIndexDescription,
  MemoryIndexFilterName,
  MemoryIndexFilters,
  MemoryIndexHit,
  MemoryIndexQuery,
  MemoryIndexRefreshOptions,
  MemoryIndexRegistration,
  PoolSource,
  PoolTarget,
  ResolvedIndexCommonOptions,
  SourceFile,
} from './contracts/memory-index';
export {
  decodeRecordHeader,
  encodeRecordHeader,
  type MemoryRecordMeta,
  memoryRecordMetaSchema,
  RECORD_KINDS,
  RECORD_METADATA_KEYS,
  RECORD_TRUST_CLASSES,
  type RecordedChunk,
  type RecordKind,
  type RecordTrustClass,
  type RunRef,
  recordKindOf,
  recordTrustOf,
} from './contracts/memory-record';
export { MAX_NESTING_DEPTH, nestedDeeperThan } from './contracts/nesting-depth';
export {
  DEFAULT_RECALL_LIMIT,
  DEFAULT_RECALL_TIERS,
  type MemoryAdapterStatus,
  type MemoryPoolDefinition,
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  type MemoryTier,
  type RetrievalAdapterCapabilities,
} from './contracts/retrieval-adapter';
export {
  agentIdSchema,
  checkAgentId,
  checkThreadKey,
  describeZodIssue,
  intInRange,
  lazySchema,
  MAX_KEY_CHARS,
  MAX_THREAD_KEY_CHARS,
  memoryGetOptionsSchema,
  memoryPoolDefinitionSchema,
  memoryQuerySchema,
  memorySearchFiltersSchema,
  memorySearchOptionsSchema,
  memoryTierSchema,
  type NormalizedMemoryQuery,
  parseInput,
  safeParse,
  searchQuerySchema,
  sessionKeySchema,
  threadKeySchema,
  unitIdSchema,
} from './contracts/schemas';
export {
  CAIRN_ERROR_CODES,
  CairnError,
  type CairnErrorCode,
  type CairnErrorOptions,
  configError,
  DEFAULT_ERROR_HINTS,
  formatError,
  formatErrorLine,
  MEMORY_BACKEND_ERROR_CODES,
  MemoryBackendError,
  type MemoryBackendErrorCode,
} from './errors';
export { type FileLockOptions, withFileLock } from './file-lock';
export { fsError, isFileSystemRefusal, typedFileSystemError } from './fs-errors';
export { assertTcpPort, listenOn } from './http/listen-on';
export {
  checkLocalOrigin,
  createLocalHttpGuard,
  type LocalHttpGuardOptions,
  type LocalHttpVerdict,
  loopbackOrigins,
  tokensEqual,
} from './http/local-http-guard';
export { isLoopbackHost, isLoopbackHostHeader } from './http/loopback';
export {
  buildExecutionMemoryInstructions,
  buildPlanningMemoryInstructions,
  buildReviewerMemoryInstructions,
  MEMORY_INSTRUCTION_PATH_HINT,
  type MemoryInstructionContext,
  type MemoryInstructionMode,
  resolveMemoryInstructionContext,
} from './instructions';
export { monotonicMs } from './monotonic-ms';
export { nodeCrypto, randomUuid, sha256Hex } from './node-crypto';
export { defaultProjectRepo } from './project-repo';
export {
  DEFAULT_MEMORY_BACKEND,
  DEFAULT_RETRIEVAL_ADAPTER,
  FOLLOW_BACKEND_ADAPTER,
  getMemoryBackend,
  getRetrievalAdapter,
  listMemoryBackendTypes,
  listRetrievalAdapterIds,
  MEMORY_BACKEND_SETTINGS_KEYS,
  type MemoryBackendFactoryOptions,
  type MemoryBackendRegistration,
  type Resolution,
  type RetrievalAdapterFactoryOptions,
  type RetrievalAdapterRegistration,
  registerMemoryBackend,
  registerRetrievalAdapter,
  requestedRetrievalAdapter,
  resolveMemoryBackend,
  resolveMemoryBackendDetailed,
  resolveRetrievalAdapter,
} from './registry';
export { PREFIXED_TOKENS, type PrefixedToken } from './secrets/provider-tokens';
export {
  type RedactionResult,
  redactionMark,
  redactSecrets,
  redactStrings,
  secretKinds,
} from './secrets/redact-secrets';
export { refuseRedactedOverwrite } from './secrets/redacted-overwrite';
export { SECRET_PATTERNS, type SecretPattern } from './secrets/secret-patterns';
export {
  PROJECT_GLOSSARY_FILENAME,
  projectGlossaryPath,
  projectGlossarySchema,
  readProjectGlossary,
} from './settings/config-file';
export {
  LOCAL_TIME_ZONE,
  SETTING_DEFINITIONS,
  type SettingDefinition,
} from './settings/definitions';
export { KNOWN_CAIRN_ENV_VARIABLES } from './settings/env-values';
export {
  type EmbedderSettings,
  embedderSettingsSchema,
  type ResolvedEmbedderSettings,
} from './settings/model-definitions';
export {
  type CairnSettings,
  type CairnSettingsOverrides,
  describeSource,
  PROJECT_CONFIG_FILE,
  projectConfigPath,
  type ResolvedSettings,
  type ResolveSettingsOptions,
  readConfigFile,
  resolveSettings,
  type SettingSource,
  type SettingsTrust,
  settingValue,
  userConfigPath,
} from './settings/resolve-settings';
export {
  type BackendOptionTrust,
  getBackendOptionTrust,
  hashEmbedderRule,
  type IgnoredSetting,
  isProjectLocalPath,
  localPathRule,
  registerBackendOptionTrust,
  TRUST_NEED_REASONS,
  type TrustNeed,
  type TrustRule,
  trustNeed,
} from './settings/trust-rules';
export {
  readTrustStore,
  revokeProjectConfig,
  type TrustChange,
  type TrustStoreLocation,
  trustProjectConfig,
  trustStorePath,
} from './settings/trust-store';
export { type TextMemo, textMemo } from './text-memo';
export {
  type ChunkOptions,
  chunkDocument,
  DEFAULT_CHUNK_OPTIONS,
  estimateTokens,
  type MemoryChunk,
} from './units/chunker';
export {
  BLOCK_SEPARATOR,
  parseMemoryDocument,
  parseUnitAttributes,
  serializeUnit,
  serializeUnitBlock,
  UNIT_END_MARKER,
  UNIT_START_PREFIX,
} from './units/unit-codec';
export {
  CAIRN_MARKER_PREFIX,
  CATEGORY_RULES,
  containsBinary,
  containsMarker,
  type DuplicateSignature,
  duplicateKey,
  duplicateSignature,
  escapeMarkers,
  inferCategory,
  isDuplicateSignature,
  isDuplicateText,
  NEAR_DUPLICATE_MIN_WORDS,
  NEAR_DUPLICATE_THRESHOLD,
  normalizeUnitText,
} from './units/unit-text';
export {
  type DocumentIssue,
  type LocatedUnit,
  MEMORY_CATEGORIES,
  type MemoryCategory,
  type MemoryUnit,
  type ParsedDocument,
  type RawSegment,
  REVIEW_STATES,
  type ReviewState,
  rawMemoryId,
  UNIT_ID_PATTERN,
} from './units/unit-types';
export { wordRuns } from './units/word-runs';
export {
  checkUserPath,
  forgetSoundFolders,
  shellQuote,
  type UserPathProblem,
  type UserPathProblemCode,
  type UserPathRule,
} from './user-paths/owner-rule';
export { ensureUserDir, isPrivateDir, privateDir, userPathWarning } from './user-paths/user-dir';
export {
  MCP_TOKEN_FILE,
  userCacheDir,
  userConfigDir,
  userStateDir,
} from './user-paths/user-dirs';
export { type UserPathWarning, userPathWarnings } from './user-paths/user-path-report';
export {
  appendStateFile,
  createCairnFile,
  makeCairnFolder,
  writeCairnFile,
} from './workspace/cairn-file-writes';
export {
  type CairnReadOptions,
  listCairnFolder,
  MAX_CAIRN_READ_BYTES,
  readCairnFile,
  readCairnFileSync,
  statCairnFile,
} from './workspace/cairn-files';
export {
  decodeExactText,
  encodeExactText,
  findInvalidUtf8,
  hasEscapedBytes,
  wellFormedText,
} from './workspace/exact-text';
export {
  assertNoCairnLinks,
  assertNoLinks,
  assertNoLinksUnderCairn,
  assertSafeDatabasePath,
  assertSafeStoreFolder,
  isRealFolder,
  isUnsafePathError,
  LINK_FIX,
  makeDirectory,
  makeDirectorySync,
  prepareStateDirectory,
  splitCairnPath,
  type UnsafeEntry,
  type UnsafeEntryKind,
  type UnsafePathReason,
  unsafeEntriesBelow,
  unsafeKindOf,
  unsafePathError,
  type WalkLimits,
} from './workspace/link-checks';
export * from './workspace/paths';
export {
  ensureMemoryWorkspace,
  getDefaultDreamsScaffold,
  getDefaultMemoryScaffold,
  listMemoryFiles,
  listMemoryFilesSync,
  listSharedFixesFiles,
  missingAsUndefined,
  readMemoryFile,
  readMemoryFileExact,
  resolveWorkspaceFile,
  statMemoryFile,
  type WorkspaceFileInfo,
  writeMemoryFile,
  writeMemoryFileExact,
} from './workspace/workspace-files';

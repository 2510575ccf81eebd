export {
  type Allocation,
  type AllocationRequest,
  allocateBudget,
  allocationRequestSchema,
  splitShares,
} from './allocate-budget';
export { type BdClient, createBdClient, findBd } from './beads-cli';
export {
  BEADS_EXPORT_FILES,
  type BeadsExport,
  type BeadsExportResult,
  parseBeadsExport,
  readBeadsExport,
} from './beads-export';
export { type BeadsIssue, isReady } from './beads-issue';
export {
  type ComposedPack,
  type ComposeOptions,
  composePack,
  type PackInput,
  type PackItem,
  planesOff,
} from './compose-pack';
export {
  type ContextPackRequest,
  contextPackRequestSchema,
  parseContextPackRequest,
} from './context-pack-request';
export {
  DOCUMENT_QUOTE_LABEL,
  escapePackItem,
  escapePackLabel,
  escapePackText,
  escapeQuotedText,
  packCodeSpan,
  quotePackText,
  RAW_QUOTE_LABEL,
} from './escape-pack-text';
export { knownFixCandidate } from './history-patterns';
export { type HistoryRequest, type HistoryResult, historyCandidates } from './history-plane';
export {
  longTermCandidates,
  type RecalledUnit,
  recallUnits,
  type SearchMemoryFn,
} from './long-term-plane';
export { dedupeItems, FactLedger, MIN_FACT_TERMS, NEAR_DUPLICATE } from './pack-dedupe';
export { type PlaneDefinition, planeDefinitions, RELEVANCE_FLOORS } from './pack-planes';
export {
  isPackProfileName,
  PACK_PROFILE_NAMES,
  PACK_PROFILES,
  type PackProfile,
  type PackProfileName,
} from './pack-profiles';
export {
  type BudgetReceipt,
  type EvidenceRun,
  EXCLUSION_REASONS,
  type ExclusionReason,
  evidenceRunSchema,
  PACK_PLANES,
  type PackCandidate,
  type PackExclusion,
  type PackPlane,
  type PackQuote,
  type PlaneBudget,
  type Provenance,
  packCandidateSchema,
  provenanceSchema,
  TRUST_CLASSES,
  type TrustClass,
} from './pack-types';
export { fitHeads, type HeadCandidate, type HeadFit } from './pinned-items';
export {
  PLANE_TIMEOUT_MS,
  type PlaneGatherer,
  type PlaneReport,
  type PlaneYield,
  runPlane,
} from './plane-runner';
export { openPlanningGraph, type PlanningGraph, type PlanningSource } from './planning-graph';
export {
  mentionedIssueIds,
  type PlanningRequest,
  type PlanningResult,
  planningCandidates,
} from './planning-plane';
export { minSharedTerms, relevantCandidates } from './relevance';
export { baseTerm, meaningfulTerms, sharedTerms } from './relevance-terms';
export {
  describeEvidence,
  describeProvenance,
  PACK_END_MARKER,
  PACK_START_MARKER,
  packFrameText,
  packFrameTokens,
  receiptIdOf,
  renderPack,
  renderPackItem,
} from './render-pack';
export {
  type ContextPack,
  type ContextPackSources,
  recallsByMeaning,
  retrieveContextPack,
} from './retrieve-context-pack';
export {
  ESTIMATE_SAFETY_FACTOR,
  estimateCounter,
  loadTokenizer,
  TOKENIZER_MODULE,
  type TokenCounter,
} from './token-counter';
export { estimateTokenCount } from './token-estimate';
export { applyTrustPolicy, type TrustPolicyOptions, type TrustPolicyResult } from './trust-policy';

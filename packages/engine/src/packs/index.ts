/** Context packs: profiles, planes, relevance, dedupe, budget and render (docs/PACKS.md). */
export type { PackInput } from './compose-pack';
export { documentCandidates } from './documents-plane';
export { escapePackItem, escapePackLabel, escapePackText } from './escape-pack-text';
export { knownFixCandidate, storeRecentPatterns } from './history-patterns';
export { historyCandidates } from './history-plane';
export { longTermCandidates } from './long-term-plane';
export { RELEVANCE_FLOORS } from './pack-planes';
export {
  isPackProfileName,
  PACK_PROFILE_NAMES,
  PACK_PROFILES,
  type PackProfile,
  type PackProfileName,
} from './pack-profiles';
export { PACK_PLANES, type PackCandidate, type PackExclusion, type PackPlane } from './pack-types';
export type { HeadCandidate } from './pinned-items';
export type { PlaneGatherer, PlaneYield } from './plane-runner';
export type { PlanningSource } from './planning-graph';
export { type QueryVocabulary, queryVocabulary } from './query-vocabulary';
export { relevantCandidates } from './relevance';
export { meaningfulTerms, sharedTerms } from './relevance-terms';
export { describeEvidence, describeProvenance, PACK_START_MARKER, renderPack } from './render-pack';
export {
  type ContextPack,
  type ContextPackSources,
  recallsByMeaning,
  retrieveContextPack,
} from './retrieve-context-pack';
export {
  ESTIMATE_SAFETY_FACTOR,
  estimateCounter,
  estimateTokenCount,
  loadTokenizer,
  type TokenCounter,
} from './token-estimate';

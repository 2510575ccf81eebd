/** Context packs: profiles, planes, relevance, dedupe, budget and render (docs/PACKS.md). */
export type { PackInput } from './compose-pack';
export { escapePackItem, escapePackLabel, escapePackText } from './escape-pack-text';
export { historyCandidates } from './history-plane';
export { knownFixCandidate, storeRecentPatterns } from './history-runs';
export {
  type PlaneGatherer,
  type PlaneYield,
  RELEVANCE_FLOORS,
} from './pack-planes';
export {
  isPackProfileName,
  PACK_PROFILE_NAMES,
  PACK_PROFILES,
  type PackProfile,
  type PackProfileName,
} from './pack-profiles';
export { PACK_PLANES, type PackCandidate, type PackExclusion, type PackPlane } from './pack-types';
export type { HeadCandidate } from './pinned-items';
export type { PlanningSource } from './planning-graph';
export { documentCandidates, longTermCandidates } from './recall-planes';
export { relevantCandidates } from './relevance';
export {
  meaningfulTerms,
  type QueryVocabulary,
  queryVocabulary,
  sharedTerms,
} from './relevance-terms';
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

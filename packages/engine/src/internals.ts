/*
 * `@cairn/engine/internals`: engine functions the repository's benchmarks
 * score directly (the token estimate, pair judgement, failure detection,
 * the maintenance schedule's cheap check and file limits). Not a stable
 * API: nothing outside this repository should import it.
 */

export { worstAnchorStates } from './anchors';
export { detectToolFailure, isLowInformation } from './history';
export {
  AUDIT_MAX_BYTES,
  DREAMS_MAX_BYTES,
  INSIGHTS_MAX_BYTES,
  idfWeights,
  isDueCheap,
  judgePair,
  type ProposalKind,
  profileText,
} from './maintenance';
export {
  type ContextPackSources,
  ESTIMATE_SAFETY_FACTOR,
  estimateTokenCount,
  meaningfulTerms,
  type TokenCounter,
} from './packs';

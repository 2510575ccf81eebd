/**
 * Maintenance (docs/MAINTENANCE.md): insight extraction on a schedule,
 * consolidation as reviewable proposals, and staleness of units that cite
 * code. `openMaintenance(cairn)` is the API the CLI, MCP and dashboard share.
 */
export { idfWeights, judgePair, profileText } from './detect-pairs';
export { openMaintenance } from './maintenance-api';
export { AUDIT_MAX_BYTES, DREAMS_MAX_BYTES, INSIGHTS_MAX_BYTES } from './maintenance-files';
export {
  PROPOSAL_KINDS,
  PROPOSAL_STATES,
  type Proposal,
  type ProposalDecisionResult,
  type ProposalKind,
  type StaleUnit,
} from './maintenance-types';
export { isDueCheap } from './schedule';

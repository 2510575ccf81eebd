/**
 * Maintenance (docs/MAINTENANCE.md): insight extraction on a schedule,
 * consolidation as reviewable proposals, and staleness of units that cite
 * code. `openMaintenance(cairn)` is the API the CLI, MCP and dashboard share.
 */

export { cachedAnchorChecks, cachedStaleness } from './cached-staleness';
export { extractCitations } from './code-citations';
export { PROPOSAL_ID_PATTERN } from './decide-proposal';
export { idfWeights, judgePair, type PairVerdict, profileText } from './detect-pairs';
export {
  type DecisionOptions,
  type Maintenance,
  type MaintenanceOptions,
  type MaintenanceStatus,
  openMaintenance,
} from './maintenance-api';
export {
  AUDIT_MAX_BYTES,
  DREAMS_MAX_BYTES,
  INSIGHTS_MAX_BYTES,
} from './maintenance-files';
export type {
  AnchorCheck,
  AnchorState,
  CodeAnchor,
  MaintenanceRun,
  Proposal,
  ProposalDecisionResult,
  ProposalKind,
  ProposalState,
  StaleUnit,
} from './maintenance-types';
export { ANCHOR_STATES, PROPOSAL_KINDS, PROPOSAL_STATES } from './maintenance-types';
export type { MaintenanceMemory, RunOutcome as MaintenanceRunOutcome } from './run-maintenance';
export { isDueCheap, nextDueAt, type ScheduleState } from './schedule';
export { worstAnchorStates } from './worst-anchor-states';

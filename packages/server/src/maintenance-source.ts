import { CairnError } from '@cairn/core';

/**
 * The seam between the dashboard's review inbox and the maintenance
 * subsystem (consolidation proposals and staleness of code anchors). The
 * server asks a `MaintenanceSource` for proposals and stale units and hands
 * it decisions; by default that is the engine's (engine-maintenance.ts).
 * `noMaintenance` answers with empty lists, for embedders that want none.
 */

/** A consolidation proposal: a patch on unit ids, applied only if the units still hash as given. */
export interface ConsolidationProposal {
  id: string;
  kind: 'merge' | 'contradiction' | 'promotion' | 'deprecation' | 'reanchor';
  /** The units the patch touches. */
  unitIds: string[];
  /** What the proposal says, in a line. */
  summary: string;
  /** The affected text before and after, for the diff the inbox shows. */
  before: string;
  after: string;
  /** Where the proposal comes from (runs, lineage nodes, units). */
  evidence: string[];
  /** `undone`: approved, then reverted; `conflict`: a unit changed since, nothing was written. */
  state: 'open' | 'approved' | 'rejected' | 'undone' | 'conflict';
  createdAt: string;
}

/** States of a unit that cites code, checked against the current git HEAD. */
export type StalenessState = 'fresh' | 'moved' | 'changed' | 'deleted';

export interface StaleUnit {
  memoryId: string;
  state: Exclude<StalenessState, 'fresh'>;
  /** The code the unit cites: path, and symbol when known. */
  anchor: { path: string; symbol?: string };
  checkedAt: string;
}

export type ProposalDecision = 'approve' | 'reject' | 'undo';

export interface MaintenanceSource {
  /** Whether a maintenance subsystem answers at all (the inbox shows "not available" otherwise). */
  readonly available: boolean;
  proposals(): Promise<ConsolidationProposal[]>;
  staleUnits(): Promise<StaleUnit[]>;
  decide(proposalId: string, decision: ProposalDecision): Promise<ConsolidationProposal>;
}

/** No maintenance: no proposals, no stale units, and decisions are UNSUPPORTED. */
export const noMaintenance: MaintenanceSource = {
  available: false,
  proposals: async () => [],
  staleUnits: async () => [],
  decide: async () => {
    throw new CairnError('UNSUPPORTED', 'There are no consolidation proposals to decide', {
      hint: 'this dashboard was started without maintenance; nothing was changed',
    });
  },
};

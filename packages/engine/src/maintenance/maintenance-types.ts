import type { AnchorState, CodeAnchor } from '../anchors';
import type { UnitPatch } from '../units';

/**
 * The maintenance subsystem's contract (docs/MAINTENANCE.md): proposals a
 * run makes, their review, and the anchors of units that cite code. The
 * CLI (`cairn review`, `cairn insights`), the MCP tools and the dashboard
 * all read these shapes through `openMaintenance`.
 */

export const PROPOSAL_KINDS = [
  'merge',
  'contradiction',
  'promotion',
  'deprecation',
  'reanchor',
] as const;
/** merge: near duplicates; contradiction: two units disagree; promotion: a lesson of task history
 * as a draft unit; deprecation: unused, or its code is gone; reanchor: its code moved. */
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

export const PROPOSAL_STATES = ['open', 'approved', 'rejected', 'undone', 'conflict'] as const;
/** open: waiting; approved: applied; rejected: never proposed again; undone: applied then
 * reverted; conflict: a unit changed since, so approving would have overwritten it. */
export type ProposalState = (typeof PROPOSAL_STATES)[number];

export interface Proposal {
  /** `P-<12 hex>`, stable for the same kind and units. */
  id: string;
  kind: ProposalKind;
  state: ProposalState;
  /** The units the patch touches (a promotion: the unit it would add). */
  unitIds: string[];
  /** What it proposes, in a line. */
  summary: string;
  /** Why: the detector's reason (similarity, the values that differ, days unused). */
  reason: string;
  /** The affected text before and after, for a diff. */
  before: string;
  after: string;
  /** Unit ids, lineage node ids (`node:…`), runs (`run:…`), fix patterns (`FIX-…`), anchors. */
  evidence: string[];
  patch: UnitPatch;
  /** Anchors to write when approved (reanchor), by unit id. */
  anchors?: CodeAnchor[];
  createdAt: string;
  decidedAt?: string;
  /** Who or what decided (`cli`, `mcp`, `dashboard`), and why when said. */
  decidedBy?: string;
  note?: string;
}

/** How an applied proposal is reverted: the inverse patch, and the anchors it replaced. */
export interface ProposalUndo {
  patch?: UnitPatch;
  anchors?: { memoryId: string; anchors: CodeAnchor[] };
}

/** What an approve / reject / undo did. */
export interface ProposalDecisionResult {
  proposal: Proposal;
  /** applied, rejected, undone, or conflict (nothing written). */
  outcome: 'applied' | 'rejected' | 'undone' | 'conflict';
  message: string;
}

export interface StaleUnit {
  memoryId: string;
  state: Exclude<AnchorState, 'fresh' | 'unverifiable'>;
  anchor: { path: string; symbol?: string; line?: number; commit: string };
  movedTo?: { path: string; line: number };
  /** The unit's text, first line. */
  text: string;
  checkedAt: string;
}

/** One extraction run as the audit and `cairn insights status` show it. */
export interface MaintenanceRun {
  runId: string;
  startedAt: string;
  finishedAt: string;
  trigger: 'schedule' | 'manual';
  examined: {
    units: number;
    notes: number;
    threads: number;
    summaries: number;
    digests: number;
    patterns: number;
  };
  proposed: Partial<Record<ProposalKind, number>>;
  /** Proposals whose units changed since they were made (marked conflict). */
  conflicts: number;
  insights: number;
  /** Lines the insights and audit files dropped to stay within their budgets. */
  pruned: { insights: number; audit: number };
  /** With a model: tokens spent and the run's budget. */
  model?: { name: string; promptTokens: number; completionTokens: number; budgetTokens: number };
  /** Why a model was not used or stopped (budget reached, failure): the run stayed extractive. */
  modelNote?: string;
  ms: number;
}

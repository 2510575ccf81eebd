import type { FixStep } from './fix-steps';

/** candidate: seen once; verified: resolved again by following it, or approved; deprecated: stopped working or rejected. */
export const FIX_PATTERN_STATES = ['candidate', 'verified', 'deprecated'] as const;
export type FixPatternState = (typeof FIX_PATTERN_STATES)[number];

/** A failing tool event as history.db records it. */
export interface RecordedFailure {
  id: number;
  /** The lineage transcript entry of the failing event (`T:<transcript>:<seq>`). */
  eventId: string;
  agentId: string;
  sessionKey: string;
  threadKey: string;
  repo: string;
  namespace: string;
  signature: string;
  /** The signature rule's family (node, pnpm, python...). */
  family: string;
  normalized: string;
  /** The failing command's family (`pnpm test`), else the tool's (`shell`, `read`). */
  commandFamily: string;
  /** The newest step id when the failure was met: its fix is the steps after it. */
  stepCursor: number;
  at: string;
  status: 'open' | 'resolved' | 'abandoned';
  resolvedEventId: string | null;
  patternId: string | null;
}

/** One run (session) a pattern rests on, and what it showed. */
export interface FixPatternRun {
  agentId: string;
  sessionKey: string;
  /** origin: the run it was learned from; succeeded / failed: a later run that followed it. */
  role: 'origin' | 'succeeded' | 'failed';
  failureEventId: string;
  successEventId: string | null;
  at: string;
}

/** A fix pattern: the steps that took a session from a signature to the same command succeeding. */
export interface FixPattern {
  id: string;
  repo: string;
  namespace: string;
  signature: string;
  family: string;
  normalized: string;
  commandFamily: string;
  /** The collapsed step keys joined by ` > ` (see fix-steps.ts). */
  stepsKey: string;
  steps: FixStep[];
  state: FixPatternState;
  /** Why it was deprecated (or approved), when a person or the counts said so. */
  reason: string | null;
  /** Times it was shown after a failure with its signature. */
  applied: number;
  /** Times a run that met its signature followed it and the command then succeeded (its origin included). */
  succeeded: number;
  /** Times a run followed it and met the same signature again. */
  failed: number;
  /** The failing and the succeeding event of the run it was learned from. */
  failureEventId: string;
  successEventId: string;
  createdAt: string;
  updatedAt: string;
}

/** What another clone's `fixes/<author>.md` gave a pattern (docs/TEAMS.md). */
export interface SharedEvidence {
  author: string;
  /** The pattern's id in that clone. */
  sourceId: string;
  applied: number;
  succeeded: number;
  failed: number;
}

export interface FixPatternDetail extends FixPattern {
  runs: FixPatternRun[];
  /** The other clones that share it, with their evidence (included in the counts). */
  shared?: SharedEvidence[];
}

/**
 * The anchors of units that cite code (docs/MAINTENANCE.md "Staleness"):
 * where a unit's citation points, pinned at a commit, and how it fared at
 * the current HEAD. Maintenance checks them; packs mark stale units from
 * the cached checks.
 */

/** States of a unit's code anchor at the current git HEAD. */
export const ANCHOR_STATES = ['fresh', 'moved', 'changed', 'deleted', 'unverifiable'] as const;
export type AnchorState = (typeof ANCHOR_STATES)[number];

/** A unit's citation of code, pinned when the unit was written or approved. */
export interface CodeAnchor {
  memoryId: string;
  /** Repository-relative path. */
  path: string;
  /** The backticked symbol the unit names, when found in the file. */
  symbol?: string;
  /** 1-based first line of the span (the symbol's definition, or the cited line). */
  line?: number;
  /** The first 16 hex digits of the SHA-256 of the normalized span. */
  spanHash: string;
  /** The commit the anchor was taken at. */
  commit: string;
}

export interface AnchorCheck {
  anchor: CodeAnchor;
  state: AnchorState;
  /** moved: where the symbol is now. */
  movedTo?: { path: string; line: number };
  /** The commit checked against. */
  head: string;
  checkedAt: string;
}

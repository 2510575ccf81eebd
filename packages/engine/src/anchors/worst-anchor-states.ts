import type { AnchorCheck, AnchorState } from './anchor-types';

/** How bad a state is: fresh and unverifiable say nothing against a unit. */
const SEVERITY: Record<AnchorState, number> = {
  fresh: 0,
  unverifiable: 0,
  moved: 1,
  changed: 2,
  deleted: 3,
};

/** Each unit's worst anchor check (a unit that cites several places is as stale as its worst). */
export function worstAnchorChecks(checks: readonly AnchorCheck[]): Map<string, AnchorCheck> {
  const worst = new Map<string, AnchorCheck>();
  for (const check of checks) {
    const seen = worst.get(check.anchor.memoryId);
    if (!seen || SEVERITY[check.state] > SEVERITY[seen.state]) {
      worst.set(check.anchor.memoryId, check);
    }
  }
  return worst;
}

/** Each unit's worst anchor state. */
export function worstAnchorStates(checks: readonly AnchorCheck[]): Map<string, AnchorState> {
  return new Map(
    [...worstAnchorChecks(checks)].map(([memoryId, check]) => [memoryId, check.state]),
  );
}

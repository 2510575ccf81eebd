import type { PackCandidate, PackExclusion, PackPlane } from './pack-types';

export interface TrustPolicyOptions {
  /**
   * Raw text (transcript, tool output) may stand in for a plane only when
   * the plane has nothing approved or derived; at most this many raw items
   * per plane then. Default 2; 0 never injects raw text. The documents
   * plane is the project's own text, quoted: its sections are chosen by
   * relevance, not by this count.
   */
  maxRawPerPlane?: number;
}

/** Planes whose raw items are what the plane is for (repository documents, quoted). */
const QUOTED_PLANES: ReadonlySet<PackPlane> = new Set(['documents']);

export interface TrustPolicyResult {
  kept: PackCandidate[];
  excluded: PackExclusion[];
}

const excluded = (item: PackCandidate, reason: PackExclusion['reason']): PackExclusion => ({
  id: item.id,
  plane: item.plane,
  reason,
  tokenCost: item.tokenCost,
});

/**
 * Seed 004 §6.2 and §9, applied before the budget: draft and deprecated
 * entries are left out (`draft-or-deprecated`: discoverable through search,
 * never injected); approved and derived items pass; raw items are left
 * out as `untrusted` when their plane has something better, and only the
 * best few stand in (the rest are `plane-limit`), which the renderer shows
 * as quoted excerpts. The documents plane's sections all pass, quoted.
 */
export function applyTrustPolicy(
  candidates: readonly PackCandidate[],
  options: TrustPolicyOptions = {},
): TrustPolicyResult {
  const maxRaw = options.maxRawPerPlane ?? 2;
  const kept: PackCandidate[] = [];
  const out: PackExclusion[] = [];
  const live = candidates.filter((item) => {
    const stale = item.reviewState === 'draft' || item.reviewState === 'deprecated';
    if (stale) out.push(excluded(item, 'draft-or-deprecated'));
    return !stale;
  });
  const answered = new Set<PackPlane>(
    live.filter((item) => item.trustClass !== 'raw').map((item) => item.plane),
  );
  const rawTaken = new Map<PackPlane, number>();
  const rawByScore = live
    .filter((item) => item.trustClass === 'raw')
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const rawKept = new Set<PackCandidate>();
  for (const item of rawByScore) {
    const taken = rawTaken.get(item.plane) ?? 0;
    const quoted = QUOTED_PLANES.has(item.plane) && maxRaw > 0;
    if (!quoted && (answered.has(item.plane) || taken >= maxRaw)) continue;
    rawTaken.set(item.plane, taken + 1);
    rawKept.add(item);
  }
  for (const item of live) {
    if (item.trustClass !== 'raw' || rawKept.has(item)) kept.push(item);
    else out.push(excluded(item, answered.has(item.plane) ? 'untrusted' : 'plane-limit'));
  }
  return { kept, excluded: out };
}

import { CairnError, lazySchema } from '@cairn/core';
import * as z from 'zod/mini';
import {
  type BudgetReceipt,
  PACK_PLANES,
  type PackCandidate,
  type PackExclusion,
  type PackPlane,
  type PlaneBudget,
  packCandidateSchema,
} from './pack-types';

const planeNumbers = lazySchema(() =>
  z.object({
    planning: z.optional(z.number().check(z.gte(0))),
    history: z.optional(z.number().check(z.gte(0))),
    'long-term': z.optional(z.number().check(z.gte(0))),
    documents: z.optional(z.number().check(z.gte(0))),
  }),
);

export const allocationRequestSchema = lazySchema(() =>
  z.object({
    /** Everything Cairn may inject in the turn, in tokens. */
    budgetTokens: z.number().check(z.int(), z.gte(0)),
    /**
     * Tokens taken off the top before the planes share the rest: text that is
     * injected outside the planes (the pack's frame, the memory head).
     */
    reservedTokens: z.optional(z.number().check(z.int(), z.gte(0))),
    /** Relative weights; they need not add up to 1. A plane without one gets 0. */
    shares: planeNumbers,
    /** Planes switched off: no share, and their candidates are excluded as `plane-off`. */
    off: z.optional(z.array(z.enum(PACK_PLANES))),
    /** Candidates scoring below this (per plane) are excluded as `below-score`. */
    minScore: z.optional(planeNumbers),
    candidates: z.array(packCandidateSchema),
  }),
);
export type AllocationRequest = z.input<typeof allocationRequestSchema>;

export interface Allocation {
  /** In plane order, then by score (highest first), then by id. */
  items: PackCandidate[];
  excluded: PackExclusion[];
  budget: BudgetReceipt & { reserved: number };
}

/**
 * Splits `total` by weight into whole tokens that add up to exactly
 * `total` (largest remainder; ties go to the earlier plane).
 */
export function splitShares(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, index) => ({ index, fraction: value - Math.floor(value) }))
    .filter(({ index }) => (weights[index] ?? 0) > 0)
    .sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Total order on what decides an allocation, so the input order never matters. */
const byRank = (a: PackCandidate, b: PackCandidate) =>
  PACK_PLANES.indexOf(a.plane) - PACK_PLANES.indexOf(b.plane) ||
  b.score - a.score ||
  compare(a.id, b.id) ||
  a.tokenCost - b.tokenCost ||
  compare(a.dedupeKey ?? '', b.dedupeKey ?? '') ||
  compare(a.text, b.text);

interface PlaneState {
  included: Map<string, string>;
  items: PackCandidate[];
  excluded: PackExclusion[];
  /** Items left out for the budget, in rank order: the leftover may take them yet. */
  waiting: { item: PackCandidate; exclusion: PackExclusion }[];
}

function exclude(state: PlaneState, item: PackCandidate, reason: PackExclusion['reason']) {
  state.excluded.push({ id: item.id, plane: item.plane, reason, tokenCost: item.tokenCost });
}

/** Fills one plane greedily by rank; returns the tokens it used. */
function fillPlane(
  candidates: readonly PackCandidate[],
  allowance: number,
  minScore: number,
  state: PlaneState,
): number {
  let used = 0;
  for (const item of candidates) {
    if (item.score < minScore) {
      exclude(state, item, 'below-score');
      continue;
    }
    const key = item.dedupeKey ?? `id:${item.id}`;
    const first = state.included.get(key) ?? state.included.get(`id:${item.id}`);
    if (first !== undefined) {
      state.excluded.push({
        id: item.id,
        plane: item.plane,
        reason: 'duplicate',
        duplicateOf: first,
        tokenCost: item.tokenCost,
      });
      continue;
    }
    if (used + item.tokenCost > allowance) {
      exclude(state, item, 'over-budget');
      state.waiting.push({ item, exclusion: state.excluded.at(-1)! });
      continue;
    }
    used += item.tokenCost;
    state.items.push(item);
    state.included.set(key, item.id);
    state.included.set(`id:${item.id}`, item.id);
  }
  return used;
}

function parseRequest(request: AllocationRequest) {
  const parsed = allocationRequestSchema.safeParse(request);
  if (!parsed.success) {
    throw new CairnError('INVALID_INPUT', 'Invalid context pack budget request', {
      cause: parsed.error,
      hint: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    });
  }
  return parsed.data;
}

/**
 * What the planes left unspent goes to the items they left out for the
 * budget, in plane order and by rank: no budget stays unused while an
 * item that fits it was left out.
 */
function spendLeftover(state: PlaneState, planes: PlaneBudget[], left: number): void {
  let remaining = left;
  for (const { item, exclusion } of state.waiting) {
    if (item.tokenCost > remaining) continue;
    const key = item.dedupeKey ?? `id:${item.id}`;
    if (state.included.has(key) || state.included.has(`id:${item.id}`)) continue;
    state.included.set(key, item.id);
    state.included.set(`id:${item.id}`, item.id);
    remaining -= item.tokenCost;
    state.items.push(item);
    state.excluded.splice(state.excluded.indexOf(exclusion), 1);
    const plane = planes.find((p) => p.plane === item.plane);
    if (plane) plane.used += item.tokenCost;
  }
  state.items.sort(byRank);
}

/**
 * Allocates one token budget over the planes, in seed order (planning,
 * history, long-term, documents). The reserve comes off the top; the rest
 * is split by the shares of the planes that are on and have candidates (an
 * empty plane hands its share to the others). Each plane takes its
 * candidates by score (ties by id), skipping any that no longer fit, and
 * hands what it left unused on to the next plane; what is still unused at
 * the end goes to the items left out for the budget, best first. An item
 * whose id or `dedupeKey` was already included (in any plane) is a
 * `duplicate`. Pure and deterministic; the total used never exceeds
 * `budgetTokens`.
 */
export function allocateBudget(request: AllocationRequest): Allocation {
  const input = parseRequest(request);
  const off = new Set<PackPlane>(input.off ?? []);
  const reserved = Math.min(input.reservedTokens ?? 0, input.budgetTokens);
  const sorted = [...input.candidates].sort(byRank);
  const present = new Set(sorted.map((item) => item.plane));
  const weights = PACK_PLANES.map((plane) =>
    off.has(plane) || !present.has(plane) ? 0 : (input.shares[plane] ?? 0),
  );
  const shares = splitShares(input.budgetTokens - reserved, weights);
  const state: PlaneState = { included: new Map(), items: [], excluded: [], waiting: [] };
  const planes: PlaneBudget[] = [];
  let carry = 0;
  PACK_PLANES.forEach((plane, index) => {
    const mine = sorted.filter((item) => item.plane === plane);
    const share = shares[index] ?? 0;
    if (off.has(plane)) {
      for (const item of mine) exclude(state, item, 'plane-off');
      planes.push({ plane, share, carriedIn: carry, used: 0 });
      return;
    }
    const allowance = share + carry;
    const used = fillPlane(mine, allowance, input.minScore?.[plane] ?? -Infinity, state);
    planes.push({ plane, share, carriedIn: carry, used });
    carry = allowance - used;
  });
  spendLeftover(state, planes, carry);
  const used = reserved + planes.reduce((sum, p) => sum + p.used, 0);
  return {
    items: state.items,
    excluded: state.excluded,
    budget: { total: input.budgetTokens, reserved, used, planes },
  };
}

/*
 * The trust policy: what may enter a pack before the budget shares it out
 * (drafts, deprecated entries and needless raw text stay out).
 */

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

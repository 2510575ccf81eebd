import { CairnError } from '@cairn/core';
import { seededRandom } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { type AllocationRequest, allocateBudget, splitShares } from './allocate-budget';
import { PACK_PLANES, type PackCandidate, type PackPlane } from './pack-types';

function candidate(
  id: string,
  plane: PackPlane,
  tokenCost: number,
  score = 1,
  extra: Partial<PackCandidate> = {},
): PackCandidate {
  return {
    id,
    plane,
    text: `text of ${id}`,
    source: 'test',
    trustClass: 'approved',
    provenance: { kind: 'unit', id },
    tokenCost,
    score,
    why: 'test',
    ...extra,
  };
}

const equalShares = { planning: 1, history: 1, 'long-term': 1, documents: 1 };

/** Seeded, so every run checks the same requests. */
const seeded = seededRandom;

function generatedRequest(random: () => number): AllocationRequest {
  const int = (max: number) => Math.floor(random() * (max + 1));
  const candidates = Array.from({ length: int(60) }, (_, i) =>
    candidate(
      `c${int(80)}`,
      PACK_PLANES[int(3)]!,
      int(random() < 0.1 ? 5000 : 400),
      Math.round(random() * 100) / 10,
      random() < 0.2 ? { dedupeKey: `k${int(5)}`, text: `variant ${i}` } : {},
    ),
  );
  return {
    budgetTokens: int(random() < 0.1 ? 0 : 8000),
    reservedTokens: random() < 0.3 ? int(3000) : undefined,
    shares: { planning: int(5), history: int(5), 'long-term': int(5), documents: int(5) },
    off: PACK_PLANES.filter(() => random() < 0.15),
    minScore: random() < 0.3 ? { 'long-term': random() * 5 } : undefined,
    candidates,
  };
}

describe('splitShares', () => {
  it('gives whole tokens that add up to the total, remainders to the earlier plane', () => {
    expect(splitShares(10, [1, 1, 1, 0])).toEqual([4, 3, 3, 0]);
    expect(splitShares(2000, [2, 3, 3, 2])).toEqual([400, 600, 600, 400]);
    expect(splitShares(5, [0, 0, 0, 0])).toEqual([0, 0, 0, 0]);
  });
});

describe('allocateBudget', () => {
  it('fills planes in seed order by score and writes a receipt', () => {
    const result = allocateBudget({
      budgetTokens: 400,
      shares: equalShares,
      candidates: [
        candidate('doc-1', 'documents', 50, 9),
        candidate('unit-low', 'long-term', 60, 1),
        candidate('unit-high', 'long-term', 60, 5),
        candidate('bd-1', 'planning', 80, 3),
      ],
    });
    expect(result.items.map((i) => i.id)).toEqual(['bd-1', 'unit-high', 'unit-low', 'doc-1']);
    expect(result.excluded).toEqual([]);
    expect(result.budget).toEqual({
      total: 400,
      reserved: 0,
      used: 250,
      // history has no candidates: its share goes to the planes that have some.
      planes: [
        { plane: 'planning', share: 134, carriedIn: 0, used: 80 },
        { plane: 'history', share: 0, carriedIn: 54, used: 0 },
        { plane: 'long-term', share: 133, carriedIn: 54, used: 120 },
        { plane: 'documents', share: 133, carriedIn: 67, used: 50 },
      ],
    });
  });

  it('excludes with reasons: over budget, below score, duplicate, plane off', () => {
    const result = allocateBudget({
      budgetTokens: 100,
      shares: { planning: 1, 'long-term': 1 },
      off: ['history'],
      minScore: { 'long-term': 2 },
      candidates: [
        candidate('bd-big', 'planning', 500, 9),
        candidate('bd-small', 'planning', 10, 1, { dedupeKey: 'same' }),
        candidate('digest', 'history', 5),
        candidate('unit-weak', 'long-term', 5, 1),
        candidate('unit-copy', 'long-term', 5, 3, { dedupeKey: 'same' }),
        candidate('bd-small', 'documents', 5),
      ],
    });
    expect(result.items.map((i) => i.id)).toEqual(['bd-small']);
    expect(result.excluded).toEqual([
      { id: 'bd-big', plane: 'planning', reason: 'over-budget', tokenCost: 500 },
      { id: 'digest', plane: 'history', reason: 'plane-off', tokenCost: 5 },
      {
        id: 'unit-copy',
        plane: 'long-term',
        reason: 'duplicate',
        duplicateOf: 'bd-small',
        tokenCost: 5,
      },
      { id: 'unit-weak', plane: 'long-term', reason: 'below-score', tokenCost: 5 },
      {
        id: 'bd-small',
        plane: 'documents',
        reason: 'duplicate',
        duplicateOf: 'bd-small',
        tokenCost: 5,
      },
    ]);
  });

  it('spends what the planes left on items left out for the budget, best first', () => {
    const result = allocateBudget({
      budgetTokens: 300,
      shares: { planning: 1, documents: 1 },
      candidates: [
        candidate('bd-big', 'planning', 200, 5),
        candidate('bd-huge', 'planning', 400, 1),
        candidate('doc-1', 'documents', 50, 9),
      ],
    });
    // planning's share (150) cannot hold bd-big; what documents leaves (250) can.
    expect(result.items.map((i) => i.id)).toEqual(['bd-big', 'doc-1']);
    expect(result.excluded).toEqual([
      { id: 'bd-huge', plane: 'planning', reason: 'over-budget', tokenCost: 400 },
    ]);
    expect(result.budget.used).toBe(250);
  });

  it('takes the reserve off the top and counts it as used', () => {
    const result = allocateBudget({
      budgetTokens: 100,
      reservedTokens: 70,
      shares: { documents: 1 },
      candidates: [candidate('a', 'documents', 20), candidate('b', 'documents', 20)],
    });
    expect(result.items.map((i) => i.id)).toEqual(['a']);
    expect(result.budget.used).toBe(90);
  });

  it('rejects a malformed request with a typed error', () => {
    const bad = { budgetTokens: -1, shares: {}, candidates: [] } as AllocationRequest;
    expect(() => allocateBudget(bad)).toThrow(CairnError);
    try {
      allocateBudget({ ...bad, budgetTokens: 10, shares: { planning: Number.NaN } });
    } catch (error) {
      expect(CairnError.isInstance(error) && error.code).toBe('INVALID_INPUT');
    }
  });

  it('never exceeds the budget over 1,000 generated requests, and is deterministic', () => {
    const random = seeded(20261125);
    for (let run = 0; run < 1000; run += 1) {
      const request = generatedRequest(random);
      const result = allocateBudget(request);
      const itemTokens = result.items.reduce((sum, item) => sum + item.tokenCost, 0);
      expect(result.budget.used).toBe(itemTokens + result.budget.reserved);
      expect(result.budget.used).toBeLessThanOrEqual(request.budgetTokens);
      const planeTotal = result.budget.planes.reduce((sum, p) => sum + p.share, 0);
      expect(planeTotal + result.budget.reserved).toBeLessThanOrEqual(request.budgetTokens);
      expect(result.items.length + result.excluded.length).toBe(request.candidates.length);
      const shuffled = { ...request, candidates: [...request.candidates].reverse() };
      expect(allocateBudget(shuffled)).toEqual(result);
    }
  });
});

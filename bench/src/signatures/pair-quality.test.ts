import { describe, expect, it } from 'vitest';
import { pairQuality, pairQualityByEcosystem } from './pair-quality';

const f = (ecosystem: string, fixKey: string, signature: string) => ({
  ecosystem,
  fixKey,
  signature,
});

describe('pairQuality', () => {
  it('counts same-fix pairs joined and different-fix pairs kept apart', () => {
    const q = pairQuality([
      f('a', 'x', 's1'),
      f('a', 'x', 's1'),
      f('a', 'x', 's2'),
      f('a', 'y', 's2'),
    ]);
    // Same-fix pairs: the three x pairs, one of them joined.
    expect(q.samePairs).toBe(3);
    expect(q.sameJoined).toBe(1);
    // Different-fix pairs: x-y three times; one shares s2.
    expect(q.differentPairs).toBe(3);
    expect(q.differentApart).toBe(2);
    expect(q.sameShare).toBeCloseTo(1 / 3);
    expect(q.apartShare).toBeCloseTo(2 / 3);
  });

  it('per ecosystem, then every pair across them', () => {
    const rows = pairQualityByEcosystem([f('a', 'x', 's'), f('a', 'x', 's'), f('b', 'y', 's')]);
    expect(rows.map((row) => row.ecosystem)).toEqual(['a', 'b', 'all']);
    expect(rows[1]?.quality.samePairs).toBe(0);
    expect(Number.isNaN(rows[1]?.quality.sameShare)).toBe(true);
    expect(rows[2]?.quality.differentApart).toBe(0);
    expect(rows[2]?.quality.apartShare).toBe(0);
  });
});

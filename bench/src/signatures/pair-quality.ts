/** One labelled output with the signature Cairn gave it. */
export interface SignedFixture {
  ecosystem: string;
  fixKey: string;
  signature: string;
}

/** Pair counts for one group of outputs (an ecosystem, or all of them). */
export interface PairQuality {
  outputs: number;
  fixes: number;
  signatures: number;
  samePairs: number;
  /** Same-fix pairs that got one signature. */
  sameJoined: number;
  differentPairs: number;
  /** Different-fix pairs that got two signatures. */
  differentApart: number;
  /** sameJoined / samePairs (NaN without same-fix pairs). */
  sameShare: number;
  /** differentApart / differentPairs (NaN without different-fix pairs). */
  apartShare: number;
}

/** Counts of pairs from group sizes: n(n-1)/2 summed. */
const pairs = (counts: Iterable<number>) => {
  let total = 0;
  for (const n of counts) total += (n * (n - 1)) / 2;
  return total;
};

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/**
 * Over all pairs of outputs: the share of same-fix pairs given one
 * signature, and the share of different-fix pairs given two. Counted from
 * group sizes rather than by walking the pairs: a pair shares its fix and
 * its signature, only its fix, only its signature, or neither.
 */
export function pairQuality(fixtures: readonly SignedFixture[]): PairQuality {
  const all = pairs([fixtures.length]);
  const sameFix = pairs(countBy(fixtures, (f) => f.fixKey).values());
  const sameSignature = pairs(countBy(fixtures, (f) => f.signature).values());
  const both = pairs(countBy(fixtures, (f) => `${f.fixKey}\0${f.signature}`).values());
  const differentPairs = all - sameFix;
  const differentApart = differentPairs - (sameSignature - both);
  return {
    outputs: fixtures.length,
    fixes: new Set(fixtures.map((f) => f.fixKey)).size,
    signatures: new Set(fixtures.map((f) => f.signature)).size,
    samePairs: sameFix,
    sameJoined: both,
    differentPairs,
    differentApart,
    sameShare: sameFix === 0 ? Number.NaN : both / sameFix,
    apartShare: differentPairs === 0 ? Number.NaN : differentApart / differentPairs,
  };
}

/** Per ecosystem (pairs inside it), then `all` (every pair, across ecosystems too). */
export function pairQualityByEcosystem(
  fixtures: readonly SignedFixture[],
): { ecosystem: string; quality: PairQuality }[] {
  const ecosystems = [...new Set(fixtures.map((f) => f.ecosystem))].sort();
  return [
    ...ecosystems.map((ecosystem) => ({
      ecosystem,
      quality: pairQuality(fixtures.filter((f) => f.ecosystem === ecosystem)),
    })),
    { ecosystem: 'all', quality: pairQuality(fixtures) },
  ];
}

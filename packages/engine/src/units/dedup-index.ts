import {
  type DuplicateSignature,
  duplicateSignature,
  isDuplicateSignature,
  type LocatedUnit,
  NEAR_DUPLICATE_MIN_WORDS,
  NEAR_DUPLICATE_THRESHOLD,
  type ParsedDocument,
  type RawSegment,
} from '@cairn/core';

export type DedupItem =
  | { kind: 'UNIT'; unit: LocatedUnit; signature: DuplicateSignature }
  | { kind: 'RAW'; segment: RawSegment; signature: DuplicateSignature };

/**
 * One parsed document's units and RAW paragraphs, in the order the
 * duplicate rule reads them (units, then RAW), with their signatures, an
 * index of normalized keys (exact duplicates) and one of words (near
 * duplicates). Built once per parsed document: a scan returns the same
 * document object while its file is unchanged.
 */
export interface DedupIndex {
  /** The first item (in rule order) that duplicates `wanted` and that `allowed` accepts. */
  find(wanted: DuplicateSignature, allowed: (item: DedupItem) => boolean): DedupItem | undefined;
}

const indexes = new WeakMap<ParsedDocument, DedupIndex>();

export function dedupIndexOf(document: ParsedDocument): DedupIndex {
  let index = indexes.get(document);
  if (!index) {
    index = buildIndex(document);
    indexes.set(document, index);
  }
  return index;
}

function buildIndex(document: ParsedDocument): DedupIndex {
  const items: DedupItem[] = [
    ...document.units.map((unit) => ({
      kind: 'UNIT' as const,
      unit,
      signature: duplicateSignature(unit.text),
    })),
    ...document.raw.map((segment) => ({
      kind: 'RAW' as const,
      segment,
      signature: duplicateSignature(segment.text),
    })),
  ];
  const byKey = new Map<string, number[]>();
  const byWord = new Map<string, number[]>();
  const push = (map: Map<string, number[]>, key: string, at: number) => {
    const list = map.get(key);
    if (list) list.push(at);
    else map.set(key, [at]);
  };
  items.forEach((item, at) => {
    push(byKey, item.signature.key, at);
    for (const word of item.signature.words) push(byWord, word, at);
  });
  return {
    find(wanted, allowed) {
      const candidates = new Set(byKey.get(wanted.key));
      for (const at of nearCandidates(wanted, byWord)) candidates.add(at);
      for (const at of [...candidates].sort((a, b) => a - b)) {
        const item = items[at]!;
        if (allowed(item) && isDuplicateSignature(item.signature, wanted)) return item;
      }
      return undefined;
    },
  };
}

/**
 * Items that could be near duplicates of `wanted`. Jaccard >= t means an
 * item lacks at most |A| - floor(t|A|) of the wanted words, so it holds at
 * least one of any that many plus one of them: the rarest are probed.
 */
function nearCandidates(wanted: DuplicateSignature, byWord: Map<string, number[]>): number[] {
  const size = wanted.words.size;
  if (size < NEAR_DUPLICATE_MIN_WORDS) return [];
  const probes = size - Math.floor(NEAR_DUPLICATE_THRESHOLD * size) + 1;
  return [...wanted.words]
    .map((word) => byWord.get(word) ?? [])
    .sort((a, b) => a.length - b.length)
    .slice(0, probes)
    .flat();
}

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

/** One indexed document: its items in rule order (units, then RAW) and its place in the scan. */
interface Entry {
  items: DedupItem[];
  order: number;
  alive: boolean;
}

interface Posting {
  entry: Entry;
  at: number;
}

/** Dead postings are dropped in one pass when they outnumber the live ones (and this floor). */
const COMPACT_FLOOR = 2_000;

function itemsOf(document: ParsedDocument): DedupItem[] {
  return [
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
}

/** Word postings are kept per word-set size: a near duplicate has a size close to the wanted one. */
const sizedWord = (size: number, word: string) => `${size} ${word}`;

/**
 * The word-set sizes an item may have and still pass the rule's size check
 * against `size` words (isDuplicateSignature: both at least the minimum,
 * the smaller at least the threshold times the larger).
 */
function nearSizes(size: number): number[] {
  const sizes: number[] = [];
  for (
    let other = NEAR_DUPLICATE_MIN_WORDS;
    other <= size / NEAR_DUPLICATE_THRESHOLD + 1;
    other += 1
  ) {
    const small = Math.min(size, other);
    const large = Math.max(size, other);
    if (small >= NEAR_DUPLICATE_MIN_WORDS && small >= large * NEAR_DUPLICATE_THRESHOLD)
      sizes.push(other);
  }
  return sizes;
}

function push(map: Map<string, Posting[]>, key: string, posting: Posting): void {
  const list = map.get(key);
  if (list) list.push(posting);
  else map.set(key, [posting]);
}

/**
 * The units and RAW paragraphs of the whole workspace, with their duplicate
 * signatures, indexed by normalized key (exact duplicates) and by word
 * (near duplicates). One lives as long as its unit store: `sync` with a
 * scan indexes only the documents that are new since the last one (a scan
 * returns the same document object while its file is unchanged), so an
 * add in a workspace of a year of units costs what its own day's file
 * costs, not what the year costs.
 */
export class DedupIndex {
  private entries = new Map<ParsedDocument, Entry>();
  private byKey = new Map<string, Posting[]>();
  private byWord = new Map<string, Posting[]>();
  private live = 0;
  private dead = 0;
  private synced: readonly ParsedDocument[] | undefined;

  /** Makes the index hold exactly `documents`, in this order (the order the rule reads them). */
  sync(documents: readonly ParsedDocument[]): void {
    if (documents === this.synced) return;
    this.synced = documents;
    const current = new Set(documents);
    for (const [document, entry] of this.entries) {
      if (current.has(document)) continue;
      entry.alive = false;
      this.entries.delete(document);
      this.live -= entry.items.length;
      this.dead += entry.items.length;
    }
    documents.forEach((document, order) => {
      const entry = this.entries.get(document);
      if (entry) entry.order = order;
      else this.add(document, order);
    });
    if (this.dead > Math.max(this.live, COMPACT_FLOOR)) this.compact();
  }

  /** The first item (in rule order) that duplicates `wanted` and that `allowed` accepts. */
  find(wanted: DuplicateSignature, allowed: (item: DedupItem) => boolean): DedupItem | undefined {
    const candidates = [...(this.byKey.get(wanted.key) ?? []), ...this.nearCandidates(wanted)]
      .filter((posting) => posting.entry.alive)
      .sort((a, b) => a.entry.order - b.entry.order || a.at - b.at);
    for (const { entry, at } of candidates) {
      const item = entry.items[at]!;
      if (allowed(item) && isDuplicateSignature(item.signature, wanted)) return item;
    }
    return undefined;
  }

  private add(document: ParsedDocument, order: number): void {
    const entry: Entry = { items: itemsOf(document), order, alive: true };
    this.entries.set(document, entry);
    this.live += entry.items.length;
    entry.items.forEach((item, at) => {
      const posting = { entry, at };
      push(this.byKey, item.signature.key, posting);
      const { words } = item.signature;
      // Smaller word sets only ever match exactly (by key).
      if (words.size < NEAR_DUPLICATE_MIN_WORDS) return;
      for (const word of words) push(this.byWord, sizedWord(words.size, word), posting);
    });
  }

  private compact(): void {
    const keep = (list: Posting[]) => list.filter((posting) => posting.entry.alive);
    for (const map of [this.byKey, this.byWord]) {
      for (const [key, list] of map) {
        const alive = keep(list);
        if (alive.length === 0) map.delete(key);
        else map.set(key, alive);
      }
    }
    this.dead = 0;
  }

  /**
   * Items that could be near duplicates of `wanted`. Jaccard >= t means an
   * item lacks at most |A| - floor(t|A|) of the wanted words, so it holds
   * at least one of any that many plus one of them: for each item size the
   * rule allows, the rarest are probed.
   */
  private nearCandidates(wanted: DuplicateSignature): Posting[] {
    const size = wanted.words.size;
    if (size < NEAR_DUPLICATE_MIN_WORDS) return [];
    const probes = size - Math.floor(NEAR_DUPLICATE_THRESHOLD * size) + 1;
    const words = [...wanted.words];
    return nearSizes(size).flatMap((other) =>
      words
        .map((word) => this.byWord.get(sizedWord(other, word)) ?? [])
        .sort((a, b) => a.length - b.length)
        .slice(0, probes)
        .flat(),
    );
  }
}

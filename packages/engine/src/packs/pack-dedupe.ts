import type { PackExclusion, PackPlane, PackQuote, TrustClass } from './pack-types';
import { meaningfulTerms } from './relevance-terms';

/**
 * Nothing twice (docs/PACKS.md "Dedupe"): one injection (the heads, the
 * pack, a known fix) never carries the same fact twice. A fact is one line
 * of an item's text, or one quotation under it, read as its meaningful
 * terms once list markers, labels (`Status:`, `Decision:`, `` `cairn.main`: ``)
 * and ids are set aside. A later fact is a near-duplicate of an earlier
 * one when at least `NEAR_DUPLICATE` of its terms are among that one's,
 * it has `MIN_FACT_TERMS` terms or more, and the earlier one is not much
 * broader (at least `NEAR_DUPLICATE_BACK` of its terms are the later's: a
 * long line that mentions a unit's subject does not say the unit); a
 * two-term fact only when an earlier one has exactly its terms ("add
 * jitter"); a one-term line is never judged ("Outcome: succeeded" of two
 * runs are two facts). A question (a thread status that asks "where is the
 * deploy key kept?") says no fact: only the same question repeats it.
 * A line is also said when one earlier item's facts say it together: one
 * of them at least half of its terms, and with one more fact at least
 * `COVERED_BY_ITEM` (a digest's intent saying the thread head's status
 * and next action in one sentence); a memory head whose many lines each
 * mention a word of it does not. Items are read
 * in the caller's order (the pinned heads, then the planes' best first):
 * the earlier says it. An item loses its repeated lines and quotations (a
 * title left with nothing under it goes too; a line inside a code block
 * stays; a document section is judged whole, as one fact, since a line
 * taken out of a quotation breaks its prose); an item with nothing left,
 * or (not a head) whose opening line
 * an earlier item said, is excluded as a `duplicate` of the first item
 * that said its facts. A unit whose id a pinned head cites is a duplicate
 * of that head.
 */

export const NEAR_DUPLICATE = 0.8;
/** Of the earlier fact's terms, the share the later one must hold: else the earlier only mentions it. */
export const NEAR_DUPLICATE_BACK = 0.5;
export const MIN_FACT_TERMS = 3;
/** Facts this short are judged only against facts of exactly their terms. */
const SHORT_FACT_TERMS = 2;
/**
 * A line of four terms or more that one earlier item's facts cover
 * together (a digest's intent line saying the thread head's status and
 * next action in one sentence) repeats that item.
 */
const COVERED_BY_ITEM = 0.85;
const COVER_MIN_TERMS = 4;
/** The share of a line's terms the first of the (at most two) facts that cover it must hold. */
const COVER_FIRST_FACT = 0.5;
/** A lineage node id (`node:<uuid>`): a line that only names nodes already named says nothing new. */
const NODE_ID = /\bnode:[0-9a-f-]{36}\b/gi;

export interface DedupableItem {
  id: string;
  plane: PackPlane;
  text: string;
  quotes?: PackQuote[];
  trustClass: TrustClass;
}

interface Fact {
  terms: ReadonlySet<string>;
  owner: string;
  /** A question says no fact: only the same question repeats it. */
  question: boolean;
}

/** A line that asks rather than says (`where is the deploy key kept?`). */
export const isQuestion = (line: string) => /\?\s*$/.test(line);

const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
  let shared = 0;
  for (const term of a) if (b.has(term)) shared += 1;
  return shared;
};

/** Unit ids and uuids (lineage nodes): references, not words of a fact. A signature's hex tells two errors apart: it stays. */
const IDS =
  /\b(?:UNIT|RAW):[\w:#.-]+|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const LIST_MARK = /^\s*(?:[-*+>]|\d{1,3}[.)])\s+/;
/** `Status: `, `Next action: `, `Gotcha 1: `, `Run s-1 (2026-05-01): `, `` `cairn.main` (claude): ``: a line's label. */
const LABEL = /^(?:`[^`]{1,120}`|[A-Z][\w -]{0,30})(?:\s*\([^)]{1,60}\))?:\s+/;
/** A title that only opens a list: `Decisions:`, `Lineage (expand with memory_expand):`, `## Next steps`. */
const TITLE = /^(?:[A-Z][\w ()-]{0,60}:|#{1,6}\s+\S.{0,60})$/;

function factTerms(line: string): ReadonlySet<string> {
  let text = line.replace(LIST_MARK, '');
  for (let i = 0; i < 2 && LABEL.test(text); i += 1) text = text.replace(LABEL, '');
  return meaningfulTerms(text.replace(IDS, ' '));
}

/** The facts said so far (indexed by term), and the unit ids the pinned items cite. */
export class FactLedger {
  private readonly facts: Fact[] = [];
  private readonly byTerm = new Map<string, number[]>();
  private readonly shortFacts = new Map<string, string>();
  /** Each item's facts (statements of two terms or more) and their terms together, in the order the items came. */
  private readonly items: { owner: string; terms: Set<string>; facts: ReadonlySet<string>[] }[] =
    [];
  private readonly nodes = new Map<string, string>();
  private readonly cited = new Map<string, string>();

  /** The item that said a fact `terms` repeats, if any: the earliest such fact's. */
  saidBy(terms: ReadonlySet<string>): string | undefined {
    if (terms.size === SHORT_FACT_TERMS) return this.shortFacts.get([...terms].sort().join(' '));
    if (terms.size < MIN_FACT_TERMS) return undefined;
    const shared = new Map<number, number>();
    for (const term of terms) {
      for (const index of this.byTerm.get(term) ?? [])
        shared.set(index, (shared.get(index) ?? 0) + 1);
    }
    let first: number | undefined;
    for (const [index, count] of shared) {
      const fact = this.facts[index]!;
      const back = count / fact.terms.size;
      if (count / terms.size < NEAR_DUPLICATE) continue;
      if (back < (fact.question ? NEAR_DUPLICATE : NEAR_DUPLICATE_BACK)) continue;
      if (first === undefined || index < first) first = index;
    }
    if (first !== undefined) return this.facts[first]!.owner;
    return terms.size >= COVER_MIN_TERMS ? this.coveredBy(terms) : undefined;
  }

  /**
   * The earlier item two of whose facts say these terms together: the
   * first at least `COVER_FIRST_FACT` of them, both `COVERED_BY_ITEM`.
   */
  private coveredBy(terms: ReadonlySet<string>): string | undefined {
    for (const item of this.items) {
      if (overlap(terms, item.terms) / terms.size < COVERED_BY_ITEM) continue;
      let best: ReadonlySet<string> | undefined;
      let most = 0;
      for (const fact of item.facts) {
        const held = overlap(terms, fact);
        if (held > most) [best, most] = [fact, held];
      }
      if (!best || most / terms.size < COVER_FIRST_FACT) continue;
      const rest = new Set([...terms].filter((term) => !best.has(term)));
      let more = 0;
      for (const fact of item.facts) if (fact !== best) more = Math.max(more, overlap(rest, fact));
      if ((most + more) / terms.size >= COVERED_BY_ITEM) return item.owner;
    }
    return undefined;
  }

  /** The item that named every lineage node of `line` first, when the line names nodes and says nothing else. */
  namedNodes(line: string, terms: ReadonlySet<string>): string | undefined {
    const ids = line.match(NODE_ID);
    if (!ids || terms.size >= MIN_FACT_TERMS) return undefined;
    const owners = ids.map((id) => this.nodes.get(id.toLowerCase()));
    return owners.every((owner) => owner !== undefined) ? owners[0] : undefined;
  }

  /** Records the lineage nodes a kept line names. */
  nameNodes(line: string, owner: string): void {
    for (const id of line.match(NODE_ID) ?? []) {
      if (!this.nodes.has(id.toLowerCase())) this.nodes.set(id.toLowerCase(), owner);
    }
  }

  add(terms: ReadonlySet<string>, owner: string, question = false): void {
    let item = this.items.at(-1);
    if (item?.owner !== owner) {
      item = { owner, terms: new Set(), facts: [] };
      this.items.push(item);
    }
    if (!question) {
      for (const term of terms) item.terms.add(term);
      if (terms.size >= SHORT_FACT_TERMS) item.facts.push(terms);
    }
    if (terms.size === SHORT_FACT_TERMS) {
      const key = [...terms].sort().join(' ');
      if (!this.shortFacts.has(key)) this.shortFacts.set(key, owner);
      return;
    }
    if (terms.size < MIN_FACT_TERMS) return;
    const index = this.facts.push({ terms, owner, question }) - 1;
    for (const term of terms) {
      const list = this.byTerm.get(term);
      if (list) list.push(index);
      else this.byTerm.set(term, [index]);
    }
  }

  /** Records the unit ids a pinned item's text names (`(UNIT:…)` in the memory head). */
  cite(text: string, owner: string): void {
    for (const id of text.match(/\bUNIT:[0-9a-f-]{36}\b/gi) ?? []) {
      if (!this.cited.has(id)) this.cited.set(id, owner);
    }
  }

  citedBy(id: string): string | undefined {
    return this.cited.get(id);
  }
}

/** Drops titles left with nothing under them (a title followed by another title, or last). */
function withoutEmptyTitles(lines: string[]): string[] {
  return lines.filter((line, index) => {
    if (!TITLE.test(line.trim())) return true;
    const next = lines[index + 1];
    return next !== undefined && next.trim() !== '' && !TITLE.test(next.trim());
  });
}

export interface DedupeOutcome<T> {
  /** The item with its repeated lines and quotes taken out; undefined when nothing is left. */
  item?: T;
  /** The item that said what this one repeats (for the exclusion), when it is left out. */
  duplicateOf?: string;
}

const FENCE_LINE = /^\s*(?:`{3,}|~{3,})/;

/** A text without its fenced code blocks: code is kept whole, whatever it repeats. */
function withoutCode(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .filter((line) => {
      const fence = FENCE_LINE.test(line);
      if (fence) inFence = !inFence;
      return !fence && !inFence;
    })
    .join('\n');
}

/** Takes one item through the ledger (see the file's comment); its own new facts are added. */
export function dedupeItem<T extends DedupableItem>(ledger: FactLedger, item: T): DedupeOutcome<T> {
  const citedBy = ledger.citedBy(item.id);
  if (citedBy) return { duplicateOf: citedBy };
  let firstOwner: string | undefined;
  // Line by line, so a line repeating an earlier line of the same item goes too.
  const keep = (terms: ReadonlySet<string>, line = '') => {
    const owner = ledger.saidBy(terms) ?? ledger.namedNodes(line, terms);
    if (owner === undefined) {
      ledger.add(terms, item.id, isQuestion(line));
      ledger.nameNodes(line, item.id);
    } else firstOwner ??= owner;
    return owner === undefined;
  };
  // A document section is quoted whole: a line taken out of its prose would break a sentence.
  if (item.plane === 'documents') {
    return keep(meaningfulTerms(withoutCode(item.text).replace(IDS, ' ')))
      ? { item }
      : { duplicateOf: firstOwner ?? item.id };
  }
  let inFence = false;
  let openingSaid = false;
  const kept = item.text.split('\n').filter((line, index) => {
    if (FENCE_LINE.test(line)) inFence = !inFence;
    // A code block is kept whole: a line taken out of it would change the code.
    if (inFence || FENCE_LINE.test(line)) return true;
    const kept = keep(factTerms(line), line);
    if (index === 0 && !kept && !TITLE.test(line.trim())) openingSaid = true;
    return kept;
  });
  // An item (not a head) whose opening says again what an earlier one said: the rest are its details.
  if (openingSaid && !item.id.startsWith('head:')) return { duplicateOf: firstOwner ?? item.id };
  const lines = withoutEmptyTitles(kept);
  const quotes = item.quotes?.filter((quote) => keep(meaningfulTerms(quote.text)));
  if (lines.join('').trim() === '') return { duplicateOf: firstOwner ?? item.id };
  const text = lines.join('\n');
  if (text === item.text && quotes?.length === item.quotes?.length) return { item };
  return { item: { ...item, text, ...(quotes ? { quotes } : {}) } };
}

/** Every item through one ledger in the given order; what is left, and the duplicates. */
export function dedupeItems<T extends DedupableItem>(
  items: readonly T[],
  ledger = new FactLedger(),
): { kept: T[]; excluded: PackExclusion[] } {
  const kept: T[] = [];
  const excluded: PackExclusion[] = [];
  for (const item of items) {
    const outcome = dedupeItem(ledger, item);
    if (outcome.item) kept.push(outcome.item);
    else {
      excluded.push({
        id: item.id,
        plane: item.plane,
        reason: 'duplicate',
        ...(outcome.duplicateOf ? { duplicateOf: outcome.duplicateOf } : {}),
        tokenCost: 0,
      });
    }
  }
  return { kept, excluded };
}

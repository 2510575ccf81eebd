import type { PackInput } from './pack-types';
import {
  heldShare,
  heldTerms,
  meaningfulTerms,
  NO_VOCABULARY,
  type QueryVocabulary,
} from './relevance-terms';

/*
 * The request's query as the relevance judge reads it (relevance.ts): its
 * parts (a prompt's sentences, a thread state's lines), each with its
 * terms, their weights by rarity among the candidates, and how many of
 * them an item must share; and what an item's words hold of a part (its
 * coverage), the request's own words counted in full and another way of
 * saying one (the search's expansion, relevance-terms.ts) at its share.
 */

/** Past this many distinct terms a text is long: it needs one shared term more. */
export const LONG_TEXT_TERMS = 25;

/** Shared terms an item needs, by the number of meaningful words in the query. */
export function minSharedTerms(queryTerms: number): number {
  return queryTerms >= 4 ? 2 : 1;
}

/** The words of a request that hold a meaningful term. */
function meaningfulWords(query: string): number {
  return query.split(/\s+/).filter((word) => meaningfulTerms(word).size > 0).length;
}

/**
 * Each query term's weight: rarer among the candidates counts more,
 * `log(1 + N / df)`; a term none of them holds weighs `log(1 + 2N)`.
 */
function termWeights(
  query: ReadonlySet<string>,
  texts: readonly ReadonlySet<string>[],
  vocabulary: QueryVocabulary,
): Map<string, number> {
  const weights = new Map<string, number>();
  const n = Math.max(1, texts.length);
  for (const term of query) {
    let df = 0;
    for (const text of texts) if (heldShare(term, text, vocabulary) > 0) df += 1;
    weights.set(term, Math.log(1 + n / Math.max(1, df)));
  }
  return weights;
}

function coverage(part: QueryPart, text: ReadonlySet<string>, vocabulary: QueryVocabulary): number {
  let total = 0;
  let held = 0;
  for (const [term, weight] of part.weights) {
    total += weight;
    held += weight * heldShare(term, text, vocabulary);
  }
  return total > 0 ? held / total : 0;
}

/** One part of the query: its terms, their weights and the shared terms an item needs. */
export interface QueryPart {
  terms: ReadonlySet<string>;
  weights: Map<string, number>;
  needed: number;
  vocabulary: QueryVocabulary;
}

export function queryParts(
  query: string,
  split: boolean,
  texts: readonly ReadonlySet<string>[],
  named: ReadonlySet<string>,
  answering: readonly ReadonlySet<string>[],
  vocabulary: QueryVocabulary,
): QueryPart[] {
  // A prompt of several sentences asks several things: an item answering one of them is relevant.
  const parts = query.split(split ? /\n|(?<=[.?!])\s+/ : /(?<=[.?!])\s+/);
  return parts
    .map((part) => ({ part, terms: withoutNamed(meaningfulTerms(part), named, texts) }))
    .filter(({ terms }) => terms.size > 0)
    .map(({ part, terms }) => {
      // Counted in words: an identifier's parts (`bd-7`: bd, 7) are one word of the request.
      const needed = minSharedTerms(meaningfulWords(part));
      const absent = [...terms].some(
        (term) => !answering.some((text) => heldShare(term, text, vocabulary) > 0),
      );
      // Part of the request no unit or section holds: an item holding one word of the rest answers nothing.
      return {
        terms,
        weights: termWeights(terms, texts, vocabulary),
        needed: absent ? Math.max(2, needed) : needed,
        vocabulary,
      };
    });
}

/**
 * The query's terms less those only an item the request names holds
 * (`bd-7` of a query naming that issue): that item answers them.
 */
function withoutNamed(
  terms: ReadonlySet<string>,
  named: ReadonlySet<string>,
  pool: readonly ReadonlySet<string>[],
): ReadonlySet<string> {
  if (named.size === 0) return terms;
  return new Set(
    [...terms].filter((term) => !named.has(term) || pool.some((text) => text.has(term))),
  );
}

/**
 * The best coverage of `text` over the parts whose shared-terms test it
 * passes; 0 when none. `literal`: the request's own words only.
 */
export function evidence(
  parts: readonly QueryPart[],
  text: ReadonlySet<string>,
  literal = false,
): number {
  // A long text (a run's whole story) holds a common word or two by chance: one more is needed.
  const extra = text.size > LONG_TEXT_TERMS ? 1 : 0;
  let best = 0;
  for (const part of parts) {
    // Another way of saying a word backs a word the item says as the request does; never alone.
    if (heldTerms(part.terms, text, NO_VOCABULARY) === 0) continue;
    const vocabulary = literal ? NO_VOCABULARY : part.vocabulary;
    if (heldTerms(part.terms, text, vocabulary) < part.needed + extra) continue;
    best = Math.max(best, coverage(part, text, vocabulary));
  }
  return best;
}

/**
 * A heading is what a part is about when its terms are at least one in
 * this many of the part's: a one-word heading (`## Testing`) said in
 * passing in a long request ("pytest says fixture tmp_path not found in
 * one of my test files") is not its subject.
 */
export const HEADING_PART = 3;

/** A document section's heading (its provenance names it `path#heading`), or ''. */
function headingOf(candidate: PackInput): string {
  const { kind, id, file } = candidate.provenance;
  if (kind !== 'document' || !file || !id.startsWith(`${file}#`)) return '';
  return id.slice(file.length + 1);
}

/** Whether `term` of the request is `stem`, or says it another way. */
const names = (part: QueryPart, stem: string) =>
  part.terms.has(stem) ||
  [...part.terms].some((term) =>
    (part.vocabulary.get(term) ?? []).some(
      (alt) => alt.stems.length === 1 && alt.stems[0] === stem,
    ),
  );

/**
 * Whether a document section's heading is what a part of the request is
 * about: every meaningful term of the heading is one of the part's (or
 * another way of saying one), they are at least a third of the part's
 * terms (`HEADING_PART`), and the section passes the part's
 * shared-terms test. Such a section answers even when its body says it
 * in other words ("how do we cut a release?" and `## Releasing`); a
 * heading that says the request's word another way names it too (`ship`
 * and `## Deploying`): a heading is what its section is about, not a
 * word said in passing.
 */
export function headingAnswers(
  parts: readonly QueryPart[],
  candidate: PackInput,
  text: ReadonlySet<string>,
) {
  const heading = meaningfulTerms(headingOf(candidate));
  if (heading.size === 0) return false;
  const extra = text.size > LONG_TEXT_TERMS ? 1 : 0;
  return parts.some(
    (part) =>
      [...heading].every((stem) => names(part, stem)) &&
      heading.size * HEADING_PART >= part.terms.size &&
      heldTerms(part.terms, text, part.vocabulary) >= part.needed + extra,
  );
}

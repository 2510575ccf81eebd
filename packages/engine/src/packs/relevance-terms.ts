import {
  expandQuery,
  projectGlossaryIndex,
  type QueryExpansion,
  queryTerms,
  wordStem,
} from '@cairn/index-kit';

/**
 * The meaningful terms of a text, as the pack's relevance floor and its
 * near-duplicate check compare them: the search's own query terms
 * (`queryTerms` of `@cairn/index-kit`: lowercase words, stop words out),
 * the parts of identifiers (`onDownloadProgress` gives download and
 * progress), words of a request that say nothing about its subject left
 * out, and each term cut to the stem the search index stores (`wordStem`:
 * `deploy` and `deployment`, `cancel` and `cancellation` meet). The one
 * place the pack reads terms: when the search's term code grows
 * (code-aware parts, stems), this function follows it. What the search
 * widens a query with (its glossaries, word forms, WordNet) is the
 * request's vocabulary, below.
 */

/** A lower-to-upper or acronym-to-word step inside one word. */
const CAMEL_SPLIT = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
const CAMEL_WORD = /[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*/g;

/**
 * Words a developer's request is made of whatever it is about: they match
 * almost any item and rank nothing (the search's stop words are out
 * already). Quantities and frequencies a question asks for (`how much`,
 * `how often`, `instead of`) are here too: the answer says a number or a
 * schedule, not the word; and the tail of a plea for help (`what am I
 * missing?`, `what am I doing wrong?`), which names no subject.
 */
const REQUEST_WORDS = new Set(
  `ask asked tell show explain help please need needs want wants know knew get gets got make makes
  made thing things way ways still also just like really actually anything something everything
  nothing one ones look looks again else ever never always sure let lets say says said think
  happen happens happened go goes going went come comes came keep kept put take took
  use uses used using work works worked working much many often instead rather
  miss missing wrong`.split(/\s+/),
);

const keep = (term: string) => term.length > 1 && !REQUEST_WORDS.has(term);

function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  for (const term of queryTerms(text)) if (keep(term)) terms.add(wordStem(term));
  for (const word of text.match(CAMEL_WORD) ?? []) {
    for (const part of queryTerms(word.split(CAMEL_SPLIT).join(' '))) {
      if (keep(part)) terms.add(wordStem(part));
    }
  }
  return terms;
}

/** Terms of texts met lately: a long-lived process ranks the same units on every prompt. */
const recent = new Map<string, ReadonlySet<string>>();
const RECENT_KEPT = 1024;

/** The meaningful terms of `text` (see the file's comment), a set of lowercase stems. */
export function meaningfulTerms(text: string): ReadonlySet<string> {
  let terms = recent.get(text);
  if (!terms) {
    terms = termsOf(text);
    if (recent.size >= RECENT_KEPT) recent.delete(recent.keys().next().value!);
    recent.set(text, terms);
  }
  return terms;
}

/** How many of `query`'s terms `text` holds, as written (`heldTerms` also counts other ways of saying them). */
export function sharedTerms(query: ReadonlySet<string>, text: ReadonlySet<string>): number {
  let shared = 0;
  for (const term of query) if (text.has(term)) shared += 1;
  return shared;
}

/**
 * What a request's terms also match, after the search's own expansion
 * (`expandQuery` of `@cairn/index-kit`, with the project's glossary as the
 * search reads it): a request that says "ship" matches an item that says
 * "release", "sent" one that says "send", "backed up" one that says
 * "backup". The relevance judge reads an item through it, so an item the
 * search found for a synonym is not thrown away for not saying the
 * request's word. One source of truth: the vocabulary grows in index-kit
 * (its software glossary, word forms and WordNet), never here.
 */

/** Another way of saying one of the request's terms. */
export interface TermAlternative {
  /** The stems a text must hold, all of them for a phrase (`not found`). */
  stems: readonly string[];
  /** The share of the term's weight a text holding only this is credited. */
  share: number;
}

/** Each of the request's terms (a stem) to its alternatives. */
export type QueryVocabulary = ReadonlyMap<string, readonly TermAlternative[]>;

/**
 * The share of a term's weight an alternative carries, by where it comes
 * from: another form or the compound written the other way is the same
 * word; a glossary's synonym almost (the search weighs them the same way
 * round, `EXPANSION_WEIGHTS`). WordNet's synonyms are general English,
 * and most senses they stand for are not the one a developer means
 * (`commit` and `pull`, `rate` and `rank`): they widen a search, they
 * make nothing relevant.
 */
export const ALTERNATIVE_SHARES: Readonly<Record<QueryExpansion['source'], number>> = {
  forms: 1,
  compound: 1,
  project: 0.8,
  glossary: 0.8,
  wordnet: 0,
};

export const NO_VOCABULARY: QueryVocabulary = new Map();

/** The project's glossary as the search reads it; a broken one is the search's to report. */
const projectGlossary = (rootDir: string) => projectGlossaryIndex(rootDir, () => undefined);

/**
 * What a text must hold to say an alternative: a word's meaningful stem;
 * each content word of a phrase (a phrase of stop words but one,
 * `not found`, would be matched by any text saying its one word: none).
 */
function alternativeStems(expansion: QueryExpansion): string[] {
  const { words } = expansion;
  if (words.length === 1) return [...meaningfulTerms(words[0]!)];
  // A word split in two (`runtime`: `run time`) is two common words anywhere in a text.
  if (expansion.source === 'compound') return [];
  const stems = [...new Set(queryTerms(words.join(' ')).map(wordStem))];
  return stems.length >= 2 ? stems : [];
}

function add(out: Map<string, TermAlternative[]>, term: string, alternative: TermAlternative) {
  const list = out.get(term) ?? [];
  const same = list.find((known) => known.stems.join(' ') === alternative.stems.join(' '));
  if (same) same.share = Math.max(same.share, alternative.share);
  else list.push({ ...alternative });
  out.set(term, list);
}

/**
 * The vocabulary of `query`: what the search widens it with, credited to
 * the request's terms each expansion stands for. `rootDir` names the
 * project whose glossary the search reads.
 */
export async function queryVocabulary(query: string, rootDir?: string): Promise<QueryVocabulary> {
  const words = queryTerms(query);
  if (words.length === 0) return NO_VOCABULARY;
  const project = rootDir ? projectGlossary(rootDir) : undefined;
  const expansions = await expandQuery(query, words, project ? { project } : {});
  const out = new Map<string, TermAlternative[]>();
  for (const expansion of expansions) {
    const share = ALTERNATIVE_SHARES[expansion.source];
    const stems = alternativeStems(expansion);
    if (share === 0 || stems.length === 0) continue;
    for (const word of expansion.standsFor) {
      for (const term of meaningfulTerms(word)) {
        if (!stems.includes(term)) add(out, term, { stems, share });
      }
    }
  }
  return out;
}

/** The share of `term` that `text` holds: 1 for the term itself, else its best alternative's. */
export function heldShare(
  term: string,
  text: ReadonlySet<string>,
  vocabulary: QueryVocabulary,
): number {
  if (text.has(term)) return 1;
  let best = 0;
  for (const alternative of vocabulary.get(term) ?? []) {
    if (alternative.share > best && alternative.stems.every((stem) => text.has(stem)))
      best = alternative.share;
  }
  return best;
}

/** How many of `query`'s terms `text` holds, itself or through an alternative. */
export function heldTerms(
  query: ReadonlySet<string>,
  text: ReadonlySet<string>,
  vocabulary: QueryVocabulary,
): number {
  let shared = 0;
  for (const term of query) if (heldShare(term, text, vocabulary) > 0) shared += 1;
  return shared;
}

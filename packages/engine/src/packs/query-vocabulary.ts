import {
  expandQuery,
  projectGlossaryIndex,
  type QueryExpansion,
  queryTerms,
  wordStem,
} from '@cairn/index-kit';
import { meaningfulTerms } from './relevance-terms';

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

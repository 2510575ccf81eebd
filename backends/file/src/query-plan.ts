import {
  codeQueryTerms,
  expandQuery,
  type GlossaryIndex,
  isStopWord,
  type QueryExpansion,
  wordStem,
} from '@cairn/index-kit';

/** More terms than this only slow the OR query down without changing the top hits. */
export const MAX_QUERY_TERMS = 32;
/** Weight of a camelCase part of a query word (`onDownloadProgress` -> download). */
export const PART_WEIGHT = 0.7;

/** One term a search looks for: a query word, a part of one, or an expansion. */
export interface PlannedTerm {
  /** Lowercase words; more than one is a phrase (its words must follow each other). */
  words: string[];
  /** The porter stems of `words`, as the index stores them. */
  stems: string[];
  /** 1 for the query's own words, less for parts and expansions. */
  weight: number;
  /** The query's own word (not a part or an expansion): what `matchedTerms` reports. */
  own: boolean;
  /** A WordNet synonym: the query word it stands for (used only when the index lacks that word). */
  of?: string;
}

/** What a search looks for: the query's words first, then the rest. */
export interface QueryPlan {
  terms: PlannedTerm[];
}

/** How a plan is widened: the project's glossary, WordNet (on by default). */
export interface PlanOptions {
  project?: GlossaryIndex;
  wordnet?: boolean;
}

/** The porter stem of a lowercase word, as the index stores it (index-kit's, memoized there). */
export const stemOf = wordStem;

function planned(words: string[], weight: number, own: boolean): PlannedTerm {
  return { words, stems: words.map(stemOf), weight, own };
}

/** The query's own words and the parts of its identifiers, without expansions. */
export function ownTerms(text: string): PlannedTerm[] {
  const { words, parts } = codeQueryTerms(text, (word) => !isStopWord(word));
  const terms = words.slice(0, MAX_QUERY_TERMS).map((word) => planned([word], 1, true));
  for (const part of parts) terms.push(planned([part], PART_WEIGHT, false));
  return terms;
}

function key(term: PlannedTerm): string {
  return term.stems.join(' ');
}

/**
 * The plan of a query: its words (weight 1), the parts of its identifiers
 * (PART_WEIGHT), then what the glossaries and WordNet add (each source's
 * weight, index-kit's EXPANSION_WEIGHTS). A term already planned is not
 * added again. No words: an empty plan.
 */
export async function planQuery(text: string, options: PlanOptions = {}): Promise<QueryPlan> {
  const terms = ownTerms(text);
  if (terms.length === 0) return { terms };
  const seen = new Set(terms.map(key));
  const words = terms.filter((term) => term.own).map((term) => term.words[0]!);
  const expansions: QueryExpansion[] = await expandQuery(text, words, options);
  for (const expansion of expansions) {
    const term = planned(expansion.words, expansion.weight, false);
    if (expansion.of) term.of = stemOf(expansion.of);
    if (seen.has(key(term))) continue;
    seen.add(key(term));
    terms.push(term);
  }
  return { terms };
}

/** The words to centre a snippet on: the query's own words, their parts, and their stems. */
export function snippetWords(plan: QueryPlan): string[] {
  const out = new Set<string>();
  for (const term of plan.terms) {
    if (!term.own && term.weight < PART_WEIGHT) continue;
    for (const word of term.words) out.add(word);
    for (const stem of term.stems) if (stem.length >= 3) out.add(stem);
  }
  return [...out];
}

/**
 * An FTS5 MATCH expression: every term quoted (so no term is read as an
 * operator or column; a term of several words is a phrase) and OR-ed, so
 * partial matches still rank. Undefined when no term is left.
 */
export function buildFtsQuery(terms: readonly PlannedTerm[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term.words.join(' ').replaceAll('"', '""')}"`).join(' OR ');
}

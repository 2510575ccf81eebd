import { queryTerms, wordStem } from '@cairn/index-kit';

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
 * widens a query with (its glossaries, word forms, WordNet) is in
 * query-vocabulary.ts.
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

import { wordRuns } from '@cairn/core';
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

/*
 * Reading a candidate's fields for the rerank (rerank.ts): where the
 * query's stems occur, how often each term does, and the label a chunk
 * opens with.
 */

/** A field of a candidate: where the query's stems occur in it. */
export interface Field {
  /** Character offset of a matching token -> its stem and where it ends. */
  at: Map<number, { stem: string; end: number }>;
  /** Stem -> how many times it occurs. */
  counts: Map<string, number>;
  text: string;
}

/** The query's stems, and their first three letters (a token that shares none is not stemmed). */
export interface QueryStems {
  prefixes: Set<string>;
  wanted: Set<string>;
}

export function queryStems(terms: readonly PlannedTerm[]): QueryStems {
  const wanted = new Set(terms.flatMap((term) => term.stems));
  return { wanted, prefixes: new Set([...wanted].map((stem) => stem.slice(0, 3))) };
}

const ALNUM = /[\p{L}\p{N}]/u;

function isAlnum(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  }
  return !Number.isNaN(code) && ALNUM.test(text[at]!);
}

/** Lowercase, diacritics removed: what FTS5's unicode61 tokenizer compares. */
function folded(text: string): string {
  const lower = text.toLowerCase();
  return /[^\0-\x7f]/.test(lower) ? lower.normalize('NFKD').replace(/\p{M}/gu, '') : lower;
}

/**
 * Finds the query's stems in a field without cutting all of it into
 * tokens: each stem's first letters are searched for, and only the tokens
 * found there are stemmed.
 */
export function readField(raw: string, query: QueryStems): Field {
  const text = folded(raw);
  const found: Field = { at: new Map(), counts: new Map(), text };
  for (const prefix of query.prefixes) {
    for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + 1)) {
      if (at > 0 && isAlnum(text, at - 1)) continue;
      let end = at + prefix.length;
      while (end < text.length && isAlnum(text, end)) end += 1;
      const stem = stemOf(text.slice(at, end));
      if (!query.wanted.has(stem) || found.at.has(at)) continue;
      found.at.set(at, { stem, end });
      found.counts.set(stem, (found.counts.get(stem) ?? 0) + 1);
    }
  }
  return found;
}

/** The offset of the token after the one ending at `end`. */
function nextToken(text: string, end: number): number {
  let at = end;
  while (at < text.length && !isAlnum(text, at)) at += 1;
  return at;
}

/** How often a term occurs in a field: a word's stem, or a phrase's stems in a row. */
export function frequency(term: PlannedTerm, f: Field): number {
  const [first, ...rest] = term.stems;
  if (rest.length === 0) return f.counts.get(first!) ?? 0;
  if (!f.counts.has(first!)) return 0;
  let count = 0;
  for (const [start, token] of f.at) {
    if (token.stem !== first) continue;
    let end = token.end;
    let whole = true;
    for (const next of rest) {
      const found = f.at.get(nextToken(f.text, end));
      if (found?.stem !== next) {
        whole = false;
        break;
      }
      end = found.end;
    }
    if (whole && start >= 0) count += 1;
  }
  return count;
}

const LABEL = /^(?:\[[^\]\n]{0,80}\]\s*)?([A-Za-z][\w .'-]{0,40}):\s/;

/** The words of a chunk's leading label (`Melanie:` after an optional `[date]`), if it has one of 1-3 words. */
export function labelStems(text: string): string[] {
  const label = LABEL.exec(text)?.[1];
  if (!label) return [];
  const words = wordRuns(label.toLowerCase());
  return words.length <= 3 ? words.map(stemOf) : [];
}

/** A chunk that ends by asking (`... any special meaning to it?`): the chunk after it may answer. */
export function asks(text: string): boolean {
  return /\?\s*$/.test(text);
}

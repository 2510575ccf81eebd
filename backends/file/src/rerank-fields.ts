import { wordRuns } from '@cairn/core';
import { type PlannedTerm, stemOf } from './query-plan';

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

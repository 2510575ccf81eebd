import { queryTerms } from '@cairn/index-kit';

/** More terms than this only slow the OR query down without changing the top hits. */
export const MAX_QUERY_TERMS = 32;

/** The search terms of a natural-language query: lowercase letters/digits, stop words dropped. */
export function searchTerms(query: string): string[] {
  return queryTerms(query).slice(0, MAX_QUERY_TERMS);
}

/**
 * An FTS5 MATCH expression: every term quoted (so no term is read as an
 * operator or column) and OR-ed, so partial matches still rank. Undefined
 * when no term is left.
 */
export function buildFtsQuery(terms: string[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

const SUFFIXES = ['ing', 'ed', 'es', 's', 'ly'];

/**
 * Terms to centre a snippet on. The index stems (porter), so a hit on
 * "deploying" may only contain "deployed": a crude suffix strip finds it.
 */
export function snippetTerms(terms: string[]): string[] {
  const out = new Set(terms);
  for (const term of terms) {
    for (const suffix of SUFFIXES) {
      if (term.endsWith(suffix) && term.length - suffix.length >= 3) {
        out.add(term.slice(0, -suffix.length));
        break;
      }
    }
  }
  return [...out];
}

import type { PlannedTerm } from './query-plan';

/**
 * An FTS5 MATCH expression: every term quoted (so no term is read as an
 * operator or column; a term of several words is a phrase) and OR-ed, so
 * partial matches still rank. Undefined when no term is left.
 */
export function buildFtsQuery(terms: readonly PlannedTerm[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms.map((term) => `"${term.words.join(' ').replaceAll('"', '""')}"`).join(' OR ');
}

/** SQL fragments for LanceDB (DataFusion) predicates. Values are always quoted, never spliced raw. */

export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** `column IN (...)`; an empty list matches nothing. */
export function sqlOneOf(column: string, values: readonly string[]): string {
  return values.length === 0 ? 'false' : `${column} IN (${values.map(sqlString).join(', ')})`;
}

/** Clauses joined with AND; no clause matches everything. */
export function sqlAnd(clauses: readonly string[]): string | undefined {
  return clauses.length === 0 ? undefined : clauses.map((c) => `(${c})`).join(' AND ');
}

/** Splits a long list so a predicate stays a reasonable size. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

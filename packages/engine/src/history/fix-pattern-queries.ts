import type { Database } from '../store';
import { PATTERN_COLUMNS, type PatternRow, toPattern } from './fix-pattern-store';
import type { FixPattern, FixPatternRun } from './fix-pattern-types';

/*
 * The reads of history.db the pack's history plane makes at every prompt
 * and session start: a few rows each, through the indexes of migration 2.
 */

/**
 * The namespace's patterns of these signatures (deprecated ones left out),
 * in one read: the history plane asks for the signatures of dozens of
 * recent failures at every prompt.
 */
export function livePatternsOf(
  db: Database,
  namespace: string,
  signatures: readonly string[],
): FixPattern[] {
  if (signatures.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT ${PATTERN_COLUMNS} FROM patterns WHERE namespace = ?
       AND signature IN (SELECT value FROM json_each(?)) AND state != 'deprecated'`,
    )
    .all(namespace, JSON.stringify(signatures)) as PatternRow[];
  return rows.map(toPattern);
}

/** The evidence runs of several patterns, in one read (each in `patternRuns` order). */
export function patternRunsOf(db: Database, patternIds: readonly string[]) {
  const runs = new Map<string, FixPatternRun[]>(patternIds.map((id) => [id, []]));
  if (patternIds.length === 0) return runs;
  const rows = db
    .prepare(
      `SELECT pattern_id AS patternId, agent_id AS agentId, session_key AS sessionKey, role,
         failure_event_id AS failureEventId, success_event_id AS successEventId, at
       FROM pattern_runs WHERE pattern_id IN (SELECT value FROM json_each(?)) ORDER BY at, role`,
    )
    .all(JSON.stringify(patternIds)) as (FixPatternRun & { patternId: string })[];
  for (const { patternId, ...run } of rows) runs.get(patternId)?.push(run);
  return runs;
}

/** How many of the newest failures `recentSignatures` reads at most for its few signatures. */
const RECENT_FAILURES_READ = 2_000;

/**
 * Signatures met in the namespace (and repository, when given), newest
 * first (for the history plane): the newest failures are read in time
 * order until `limit` signatures are found, not every failure grouped.
 */
export function recentSignatures(
  db: Database,
  scope: { repo?: string; namespace?: string; limit: number },
): string[] {
  const rows = db
    .prepare(
      scope.namespace === undefined
        ? 'SELECT signature, repo FROM failures ORDER BY at DESC, id DESC LIMIT ?'
        : `SELECT signature, repo FROM failures WHERE namespace = ?
           ORDER BY at DESC, id DESC LIMIT ?`,
    )
    .iterate(
      ...(scope.namespace === undefined ? [] : [scope.namespace]),
      RECENT_FAILURES_READ,
    ) as IterableIterator<{ signature: string; repo: string }>;
  const found = new Set<string>();
  for (const row of rows) {
    if (scope.repo !== undefined && row.repo !== scope.repo) continue;
    found.add(row.signature);
    if (found.size >= scope.limit) break;
  }
  return [...found];
}

import type { Database } from '../store';
import type {
  FixPattern,
  FixPatternDetail,
  FixPatternRun,
  FixPatternState,
  RecordedFailure,
  SharedEvidence,
} from './fix-pattern-types';
import type { FixStep } from './fix-steps';

/** The SQL of history.db, one small function per statement (see history-database.ts). */

const FAILURE_COLUMNS = `id, event_id AS eventId, agent_id AS agentId, session_key AS sessionKey,
  thread_key AS threadKey, repo, namespace, signature, family, normalized,
  command_family AS commandFamily, step_cursor AS stepCursor, at, status,
  resolved_event_id AS resolvedEventId, pattern_id AS patternId`;

export const PATTERN_COLUMNS = `id, repo, namespace, signature, family, normalized,
  command_family AS commandFamily, steps_key AS stepsKey, steps, state, reason,
  applied, succeeded, failed, failure_event_id AS failureEventId,
  success_event_id AS successEventId, created_at AS createdAt, updated_at AS updatedAt`;

export type PatternRow = Omit<FixPattern, 'steps'> & { steps: string };
export const toPattern = (row: PatternRow): FixPattern => ({
  ...row,
  steps: JSON.parse(row.steps) as FixStep[],
});

export type NewFailure = Omit<
  RecordedFailure,
  'id' | 'status' | 'resolvedEventId' | 'patternId' | 'stepCursor'
>;

export function insertFailure(db: Database, failure: NewFailure): RecordedFailure {
  const stepCursor = lastStepId(db);
  const result = db
    .prepare(
      `INSERT INTO failures (event_id, agent_id, session_key, thread_key, repo, namespace, signature,
         family, normalized, command_family, step_cursor, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      failure.eventId,
      failure.agentId,
      failure.sessionKey,
      failure.threadKey,
      failure.repo,
      failure.namespace,
      failure.signature,
      failure.family,
      failure.normalized,
      failure.commandFamily,
      stepCursor,
      failure.at,
    );
  return {
    ...failure,
    id: Number(result.lastInsertRowid),
    stepCursor,
    status: 'open',
    resolvedEventId: null,
    patternId: null,
  };
}

export function openFailures(db: Database, agentId: string, sessionKey: string): RecordedFailure[] {
  return db
    .prepare(
      `SELECT ${FAILURE_COLUMNS} FROM failures
       WHERE agent_id = ? AND session_key = ? AND status = 'open' ORDER BY id`,
    )
    .all(agentId, sessionKey) as RecordedFailure[];
}

export function sessionFailures(db: Database, agentId: string, sessionKey: string) {
  return db
    .prepare(
      `SELECT ${FAILURE_COLUMNS} FROM failures WHERE agent_id = ? AND session_key = ? ORDER BY id`,
    )
    .all(agentId, sessionKey) as RecordedFailure[];
}

export function closeFailure(
  db: Database,
  id: number,
  close: { status: 'resolved' | 'abandoned'; eventId?: string; at: string; patternId?: string },
): void {
  db.prepare(
    `UPDATE failures SET status = ?, resolved_event_id = ?, resolved_at = ?, pattern_id = ? WHERE id = ?`,
  ).run(close.status, close.eventId ?? null, close.at, close.patternId ?? null, id);
}

export function lastStepId(db: Database): number {
  const row = db.prepare('SELECT max(id) AS id FROM steps').get() as { id: number | null };
  return row.id ?? 0;
}

export function insertStep(
  db: Database,
  ids: { agentId: string; sessionKey: string },
  step: FixStep,
  at: string,
): void {
  db.prepare(
    'INSERT INTO steps (agent_id, session_key, event_id, kind, step_key, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(ids.agentId, ids.sessionKey, step.eventId, step.kind, step.key, step.detail, at);
}

/** The session's steps recorded after `cursor`, oldest first. */
export function stepsAfter(
  db: Database,
  ids: { agentId: string; sessionKey: string },
  cursor: number,
): FixStep[] {
  return db
    .prepare(
      `SELECT kind, step_key AS key, detail, event_id AS eventId FROM steps
       WHERE agent_id = ? AND session_key = ? AND id > ? ORDER BY id`,
    )
    .all(ids.agentId, ids.sessionKey, cursor) as FixStep[];
}

/**
 * The namespace's patterns of a signature. history.db is the project's
 * own, so every repo it records is this project under a name it had: a
 * folder renamed or moved, or a clone restored from `cairn export` or
 * sharing patterns, keeps its patterns (this clone's repo's first).
 */
export function patternsFor(
  db: Database,
  scope: { repo: string; namespace: string; signature: string },
): FixPattern[] {
  const rows = db
    .prepare(
      `SELECT ${PATTERN_COLUMNS} FROM patterns WHERE namespace = ? AND signature = ?
       ORDER BY repo = ? DESC, id`,
    )
    .all(scope.namespace, scope.signature, scope.repo) as PatternRow[];
  return rows.map(toPattern);
}

export function getPatternRow(
  db: Database,
  id: string,
  namespace?: string,
): FixPattern | undefined {
  const row = db
    .prepare(
      `SELECT ${PATTERN_COLUMNS} FROM patterns WHERE id = ? AND (? IS NULL OR namespace = ?)`,
    )
    .get(id, namespace ?? null, namespace ?? null) as PatternRow | undefined;
  return row ? toPattern(row) : undefined;
}

export function insertPattern(db: Database, pattern: FixPattern): void {
  db.prepare(
    `INSERT INTO patterns (id, repo, namespace, signature, family, normalized, command_family, steps_key,
       steps, state, reason, applied, succeeded, failed, failure_event_id, success_event_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    pattern.id,
    pattern.repo,
    pattern.namespace,
    pattern.signature,
    pattern.family,
    pattern.normalized,
    pattern.commandFamily,
    pattern.stepsKey,
    JSON.stringify(pattern.steps),
    pattern.state,
    pattern.reason,
    pattern.applied,
    pattern.succeeded,
    pattern.failed,
    pattern.failureEventId,
    pattern.successEventId,
    pattern.createdAt,
    pattern.updatedAt,
  );
}

/** Adds to a pattern's counts (and sets its state when given). */
export function updatePattern(
  db: Database,
  id: string,
  change: {
    applied?: number;
    succeeded?: number;
    failed?: number;
    state?: FixPatternState;
    reason?: string | null;
    at: string;
  },
): void {
  db.prepare(
    `UPDATE patterns SET applied = applied + ?, succeeded = succeeded + ?, failed = failed + ?,
       state = coalesce(?, state), reason = CASE WHEN ? THEN ? ELSE reason END, updated_at = ? WHERE id = ?`,
  ).run(
    change.applied ?? 0,
    change.succeeded ?? 0,
    change.failed ?? 0,
    change.state ?? null,
    change.reason === undefined ? 0 : 1,
    change.reason ?? null,
    change.at,
    id,
  );
}

export function addRun(db: Database, patternId: string, run: FixPatternRun): void {
  db.prepare(
    `INSERT OR IGNORE INTO pattern_runs (pattern_id, agent_id, session_key, role, failure_event_id, success_event_id, at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    patternId,
    run.agentId,
    run.sessionKey,
    run.role,
    run.failureEventId,
    run.successEventId,
    run.at,
  );
}

export function patternRuns(db: Database, patternId: string): FixPatternRun[] {
  return db
    .prepare(
      `SELECT agent_id AS agentId, session_key AS sessionKey, role, failure_event_id AS failureEventId,
         success_event_id AS successEventId, at FROM pattern_runs WHERE pattern_id = ? ORDER BY at, role`,
    )
    .all(patternId) as FixPatternRun[];
}

/** Distinct sessions whose run resolved the signature with this pattern (origin or succeeded). */
export function resolvingSessions(db: Database, patternId: string): number {
  const row = db
    .prepare(
      `SELECT count(DISTINCT agent_id || char(0) || session_key) AS n FROM pattern_runs
       WHERE pattern_id = ? AND role IN ('origin', 'succeeded')`,
    )
    .get(patternId) as { n: number };
  return row.n;
}

export function listPatternRows(
  db: Database,
  filter: { state?: FixPatternState; namespace: string; limit: number },
): FixPattern[] {
  const rows = db
    .prepare(
      `SELECT ${PATTERN_COLUMNS} FROM patterns WHERE (? IS NULL OR state = ?) AND namespace = ?
       ORDER BY CASE state WHEN 'verified' THEN 0 WHEN 'candidate' THEN 1 ELSE 2 END,
         succeeded DESC, updated_at DESC LIMIT ?`,
    )
    .all(
      filter.state ?? null,
      filter.state ?? null,
      filter.namespace,
      filter.limit,
    ) as PatternRow[];
  return rows.map(toPattern);
}

export function patternDetail(
  db: Database,
  id: string,
  namespace?: string,
): FixPatternDetail | undefined {
  const pattern = getPatternRow(db, id, namespace);
  if (!pattern) return undefined;
  const shared = db
    .prepare(
      `SELECT author, source_id AS sourceId, applied, succeeded, failed FROM shared_evidence
       WHERE pattern_id = ? ORDER BY author`,
    )
    .all(id) as SharedEvidence[];
  return { ...pattern, runs: patternRuns(db, id), ...(shared.length ? { shared } : {}) };
}

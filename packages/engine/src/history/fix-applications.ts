import type { Database } from '../store';

/**
 * Applications: a pattern shown after a failure in a session, and how that
 * ended (succeeded, failed, other-fix, abandoned), so a pattern is counted
 * failed only when a run that was shown it followed it and failed again.
 */

export interface Application {
  id: number;
  patternId: string;
  failureId: number;
  stepCursor: number;
}

export function insertApplication(
  db: Database,
  ids: { agentId: string; sessionKey: string },
  application: Omit<Application, 'id'>,
  at: string,
): void {
  db.prepare(
    `INSERT INTO applications (pattern_id, agent_id, session_key, failure_id, step_cursor, at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(
    application.patternId,
    ids.agentId,
    ids.sessionKey,
    application.failureId,
    application.stepCursor,
    at,
  );
}

/** The session's applications whose outcome is not known yet. */
export function pendingApplications(
  db: Database,
  ids: { agentId: string; sessionKey: string },
): Application[] {
  return db
    .prepare(
      `SELECT id, pattern_id AS patternId, failure_id AS failureId, step_cursor AS stepCursor
       FROM applications WHERE agent_id = ? AND session_key = ? AND outcome IS NULL ORDER BY id`,
    )
    .all(ids.agentId, ids.sessionKey) as Application[];
}

export function setApplicationOutcome(db: Database, id: number, outcome: string): void {
  db.prepare('UPDATE applications SET outcome = ? WHERE id = ?').run(outcome, id);
}

import { parseInput } from '@cairn/core';
import { readTransaction, type SqliteDatabase, writeTransaction } from './lineage-database';
import {
  agentIdSchema,
  instantSchema,
  sessionKeySchema,
  summaryFailureSchema,
} from './lineage-inputs';
import type { Instant, SummaryFailureInput, SummaryRetry } from './lineage-types';

/**
 * Bookkeeping for session summaries that failed (model down, head busy): a
 * failure is a deferred attempt, never a dropped one. This is the one table
 * whose rows change and go away; it holds no history.
 */

const BASE_DELAY_MS = 60_000;
const MAX_DELAY_MS = 6 * 60 * 60_000;

/** 1 min, 2 min, 4 min, ... at most 6 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(attempts - 1, 30));
}

const RETRY_COLUMNS = `agent_id AS agentId, session_key AS sessionKey, attempts,
  last_error AS lastError, next_attempt_at AS nextAttemptAt, first_failed_at AS firstFailedAt,
  updated_at AS updatedAt`;

export function recordSummaryFailure(
  db: SqliteDatabase,
  now: () => Date,
  raw: SummaryFailureInput,
): SummaryRetry {
  const input = parseInput(summaryFailureSchema, raw, 'summary failure');
  const at = now();
  return writeTransaction(db, 'record a summary failure', () => {
    const previous = db
      .prepare('SELECT attempts FROM summary_retries WHERE agent_id = ? AND session_key = ?')
      .get(input.agentId, input.sessionKey) as { attempts: number } | undefined;
    const attempts = (previous?.attempts ?? 0) + 1;
    const nextAttemptAt =
      input.nextAttemptAt ?? new Date(at.getTime() + retryDelayMs(attempts)).toISOString();
    return db
      .prepare(
        `INSERT INTO summary_retries
           (agent_id, session_key, attempts, last_error, next_attempt_at, first_failed_at, updated_at)
         VALUES (@agentId, @sessionKey, @attempts, @error, @nextAttemptAt, @at, @at)
         ON CONFLICT (agent_id, session_key) DO UPDATE SET
           attempts = excluded.attempts, last_error = excluded.last_error,
           next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at
         RETURNING ${RETRY_COLUMNS}`,
      )
      .get({
        agentId: input.agentId,
        sessionKey: input.sessionKey,
        attempts,
        error: input.error,
        nextAttemptAt,
        at: at.toISOString(),
      }) as SummaryRetry;
  });
}

/** Forgets the retry of one (agent, session) after a summary succeeded; true if there was one. */
export function clearSummaryRetry(
  db: SqliteDatabase,
  agentIdRaw: string,
  sessionKeyRaw: string,
): boolean {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const sessionKey = parseInput(sessionKeySchema, sessionKeyRaw, 'sessionKey');
  return writeTransaction(
    db,
    'clear a summary retry',
    () =>
      db
        .prepare('DELETE FROM summary_retries WHERE agent_id = ? AND session_key = ?')
        .run(agentId, sessionKey).changes > 0,
  );
}

/** The agent's retries whose next attempt is due at `now`, most overdue first. */
export function dueSummaryRetries(
  db: SqliteDatabase,
  agentIdRaw: string,
  nowRaw: Instant,
): SummaryRetry[] {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const now = parseInput(instantSchema, nowRaw, 'now');
  return readTransaction(
    db,
    'read due summary retries',
    () =>
      db
        .prepare(
          `SELECT ${RETRY_COLUMNS} FROM summary_retries
           WHERE agent_id = ? AND next_attempt_at <= ?
           ORDER BY next_attempt_at, session_key`,
        )
        .all(agentId, now) as SummaryRetry[],
  );
}

import type { SqliteStatement } from '@cairn/sqlite';
import type { Database } from '../store';

export interface SessionRecord {
  agentId: string;
  sessionKey: string;
  threadKey: string;
  harness: string | null;
  cwd: string | null;
  /** Bumped by each compaction: injection bookkeeping starts over. */
  epoch: number;
  startedAt: string;
}

/** Sessions (their thread and epoch) and what was injected into each. */
export class HeadSessions {
  private injectedQuery: SqliteStatement | undefined;

  constructor(private readonly db: Database) {}

  /** Records a session (first start wins its thread; later starts keep it). */
  startSession(record: Omit<SessionRecord, 'epoch'>): SessionRecord {
    this.db
      .prepare(
        `INSERT INTO sessions (agent_id, session_key, thread_key, harness, cwd, started_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (agent_id, session_key) DO NOTHING`,
      )
      .run(
        record.agentId,
        record.sessionKey,
        record.threadKey,
        record.harness,
        record.cwd,
        record.startedAt,
      );
    return this.session(record.agentId, record.sessionKey)!;
  }

  session(agentId: string, sessionKey: string): SessionRecord | undefined {
    return this.db
      .prepare(
        `SELECT agent_id AS agentId, session_key AS sessionKey, thread_key AS threadKey, harness, cwd, epoch,
                started_at AS startedAt FROM sessions WHERE agent_id = ? AND session_key = ?`,
      )
      .get(agentId, sessionKey) as SessionRecord | undefined;
  }

  /** After a compaction, items injected before it may be injected again. */
  bumpEpoch(agentId: string, sessionKey: string): void {
    this.db
      .prepare('UPDATE sessions SET epoch = epoch + 1 WHERE agent_id = ? AND session_key = ?')
      .run(agentId, sessionKey);
  }

  /** Of `itemIds`, those already injected in this session's epoch (read only). */
  injected(session: SessionRecord, itemIds: string[]): Set<string> {
    if (itemIds.length === 0) return new Set();
    // Asked on every prompt: one statement, prepared once per store, for all the ids.
    this.injectedQuery ??= this.db.prepare(
      `SELECT item_id AS id FROM injections
       WHERE agent_id = ? AND session_key = ? AND epoch = ? AND item_id IN (SELECT value FROM json_each(?))`,
    );
    const rows = this.injectedQuery.all(
      session.agentId,
      session.sessionKey,
      session.epoch,
      JSON.stringify(itemIds),
    ) as { id: string }[];
    return new Set(rows.map((row) => row.id));
  }

  /** Keeps the ids not yet injected in this session's epoch, and marks them injected. */
  claimInjections(session: SessionRecord, itemIds: string[]): string[] {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO injections (agent_id, session_key, epoch, item_id) VALUES (?, ?, ?, ?)',
    );
    return this.db
      .transaction(() =>
        itemIds.filter(
          (id) => insert.run(session.agentId, session.sessionKey, session.epoch, id).changes === 1,
        ),
      )
      .immediate();
  }

  /** Unit ids injected during the session (any epoch), to link from its summary node. */
  injectedUnits(session: SessionRecord): string[] {
    const rows = this.db
      .prepare(
        "SELECT DISTINCT item_id AS id FROM injections WHERE agent_id = ? AND session_key = ? AND item_id LIKE 'UNIT:%'",
      )
      .all(session.agentId, session.sessionKey) as { id: string }[];
    return rows.map((row) => row.id);
  }
}

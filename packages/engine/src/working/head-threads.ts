import type { Database } from '../store';
import type { SummaryFacts, ThreadHeadState } from './thread-state';

/** Tier 2 state: each thread's head and the facts distilled into its nodes. */
export class HeadThreads {
  constructor(private readonly db: Database) {}

  /**
   * Records the facts distilled into a temporal node. Append-only and
   * outside any lease, so a busy head never loses them: the next render of
   * the thread folds them in.
   */
  addFacts(entry: {
    agentId: string;
    threadKey: string;
    nodeId: string;
    facts: SummaryFacts;
    at: string;
    session: boolean;
  }): void {
    this.db
      .prepare(
        'INSERT OR IGNORE INTO node_facts (node_id, agent_id, thread_key, facts, at, session) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        entry.nodeId,
        entry.agentId,
        entry.threadKey,
        JSON.stringify(entry.facts),
        entry.at,
        entry.session ? 1 : 0,
      );
  }

  /** The thread's facts, oldest first, at most the `limit` newest. */
  recentFacts(
    agentId: string,
    threadKey: string,
    limit = 40,
  ): { nodeId: string; facts: SummaryFacts; at: string; session: boolean }[] {
    const rows = this.db
      .prepare(
        `SELECT node_id AS nodeId, facts, at, session FROM node_facts WHERE agent_id = ? AND thread_key = ?
         ORDER BY at DESC, node_id DESC LIMIT ?`,
      )
      .all(agentId, threadKey, limit) as {
      nodeId: string;
      facts: string;
      at: string;
      session: number;
    }[];
    return rows.reverse().map((row) => ({
      nodeId: row.nodeId,
      facts: JSON.parse(row.facts) as SummaryFacts,
      at: row.at,
      session: row.session === 1,
    }));
  }

  /** Which of these temporal node ids this clone distilled (and so can expand). */
  knownNodes(ids: readonly string[]): Set<string> {
    if (ids.length === 0) return new Set();
    const rows = this.db
      .prepare(
        'SELECT node_id AS id FROM node_facts WHERE node_id IN (SELECT value FROM json_each(?))',
      )
      .all(JSON.stringify(ids)) as { id: string }[];
    return new Set(rows.map((row) => row.id));
  }

  sessionCount(agentId: string, threadKey: string): number {
    // Kept by a trigger on node_facts (heads.db migration 4): one row, not a count.
    const row = this.db
      .prepare('SELECT sessions FROM thread_sessions WHERE agent_id = ? AND thread_key = ?')
      .get(agentId, threadKey) as { sessions: number } | undefined;
    return row?.sessions ?? 0;
  }

  getThread(agentId: string, threadKey: string): ThreadHeadState | undefined {
    const row = this.db
      .prepare('SELECT state FROM thread_states WHERE agent_id = ? AND thread_key = ?')
      .get(agentId, threadKey) as { state: string } | undefined;
    return row ? (JSON.parse(row.state) as ThreadHeadState) : undefined;
  }

  putThread(state: ThreadHeadState): void {
    this.db
      .prepare(
        `INSERT INTO thread_states (agent_id, thread_key, state, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (agent_id, thread_key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      )
      .run(state.agentId, state.threadKey, JSON.stringify(state), state.updatedAt);
  }

  /** Every thread head, or those of one agent. */
  list(agentId?: string): ThreadHeadState[] {
    const rows = (
      agentId
        ? this.db.prepare('SELECT state FROM thread_states WHERE agent_id = ?').all(agentId)
        : this.db.prepare('SELECT state FROM thread_states').all()
    ) as { state: string }[];
    return rows.map((row) => JSON.parse(row.state) as ThreadHeadState);
  }
}

import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { type Database, migrate, openDatabase } from './sqlite';
import type { SummaryFacts, ThreadHeadState } from './thread-state';

/** Versioned schema of `.cairn/state/heads.db`; append new migrations, never edit old ones. */
export const HEADS_MIGRATIONS = [
  `CREATE TABLE head_records (
     agent_id TEXT NOT NULL, scope TEXT NOT NULL,
     lease_owner TEXT, lease_expires_ms INTEGER NOT NULL DEFAULT 0,
     version INTEGER NOT NULL DEFAULT 0, last_rendered TEXT, updated_at TEXT,
     PRIMARY KEY (agent_id, scope));
   CREATE TABLE thread_states (
     agent_id TEXT NOT NULL, thread_key TEXT NOT NULL, state TEXT NOT NULL, updated_at TEXT NOT NULL,
     PRIMARY KEY (agent_id, thread_key));
   CREATE TABLE node_facts (
     node_id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, thread_key TEXT NOT NULL,
     facts TEXT NOT NULL, at TEXT NOT NULL, session INTEGER NOT NULL);
   CREATE INDEX node_facts_by_thread ON node_facts (agent_id, thread_key, at);
   CREATE TABLE pending_writes (
     id INTEGER PRIMARY KEY, agent_id TEXT NOT NULL, scope TEXT NOT NULL,
     requested_ms INTEGER NOT NULL, reason TEXT NOT NULL);`,
  `CREATE TABLE sessions (
     agent_id TEXT NOT NULL, session_key TEXT NOT NULL, thread_key TEXT NOT NULL,
     harness TEXT, cwd TEXT, epoch INTEGER NOT NULL DEFAULT 0, started_at TEXT NOT NULL,
     PRIMARY KEY (agent_id, session_key));
   CREATE TABLE injections (
     agent_id TEXT NOT NULL, session_key TEXT NOT NULL, epoch INTEGER NOT NULL, item_id TEXT NOT NULL,
     PRIMARY KEY (agent_id, session_key, epoch, item_id));`,
  // The claims are their own key: without a rowid they are stored once, not
  // twice (table and key index), which halves the largest table of a year.
  `CREATE TABLE injections_by_key (
     agent_id TEXT NOT NULL, session_key TEXT NOT NULL, epoch INTEGER NOT NULL, item_id TEXT NOT NULL,
     PRIMARY KEY (agent_id, session_key, epoch, item_id)) WITHOUT ROWID;
   INSERT INTO injections_by_key SELECT agent_id, session_key, epoch, item_id FROM injections;
   DROP TABLE injections;
   ALTER TABLE injections_by_key RENAME TO injections;`,
];

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

export type LeaseResult =
  | { ok: true; version: number; lastRendered: string | undefined }
  | { ok: false; holder: string; expiresMs: number };

export interface PendingWrite {
  id: number;
  agentId: string;
  scope: string;
  requestedMs: number;
  reason: string;
}

/**
 * Head records (seed 002 §2): one per (agent_id, scope) with a lease owner,
 * its expiry and a version. A writer meeting another owner's active lease
 * is refused; its write is recorded as pending and retried, never dropped.
 */
export class HeadStore {
  private readonly db: Database;

  constructor(rootDir: string) {
    this.db = openDatabase(join(cairnStatePath(rootDir), 'heads.db'));
    migrate(this.db, HEADS_MIGRATIONS);
  }

  acquire(
    agentId: string,
    scope: string,
    owner: string,
    ttlMs: number,
    nowMs = Date.now(),
  ): LeaseResult {
    return this.db
      .transaction((): LeaseResult => {
        const row = this.db
          .prepare(
            'SELECT lease_owner AS owner, lease_expires_ms AS expires, version, last_rendered AS last FROM head_records WHERE agent_id = ? AND scope = ?',
          )
          .get(agentId, scope) as
          | { owner: string | null; expires: number; version: number; last: string | null }
          | undefined;
        if (row?.owner && row.owner !== owner && row.expires > nowMs) {
          return { ok: false, holder: row.owner, expiresMs: row.expires };
        }
        this.db
          .prepare(
            `INSERT INTO head_records (agent_id, scope, lease_owner, lease_expires_ms) VALUES (?, ?, ?, ?)
             ON CONFLICT (agent_id, scope) DO UPDATE SET lease_owner = excluded.lease_owner, lease_expires_ms = excluded.lease_expires_ms`,
          )
          .run(agentId, scope, owner, nowMs + ttlMs);
        return { ok: true, version: row?.version ?? 0, lastRendered: row?.last ?? undefined };
      })
      .immediate();
  }

  /** Ends the lease; with `rendered`, records what was written and bumps the version. */
  release(agentId: string, scope: string, owner: string, rendered?: string): void {
    const bump =
      rendered === undefined ? '' : ', version = version + 1, last_rendered = ?, updated_at = ?';
    const params = rendered === undefined ? [] : [rendered, new Date().toISOString()];
    this.db
      .prepare(
        `UPDATE head_records SET lease_owner = NULL, lease_expires_ms = 0${bump} WHERE agent_id = ? AND scope = ? AND lease_owner = ?`,
      )
      .run(...params, agentId, scope, owner);
  }

  record(agentId: string, scope: string): { version: number; owner: string | null } | undefined {
    return this.db
      .prepare(
        'SELECT version, lease_owner AS owner FROM head_records WHERE agent_id = ? AND scope = ?',
      )
      .get(agentId, scope) as { version: number; owner: string | null } | undefined;
  }

  defer(agentId: string, scope: string, reason: string, nowMs = Date.now()): void {
    this.db
      .prepare(
        'INSERT INTO pending_writes (agent_id, scope, requested_ms, reason) VALUES (?, ?, ?, ?)',
      )
      .run(agentId, scope, nowMs, reason);
  }

  /** A render that started at `startedMs` covers every write requested before it. */
  settle(agentId: string, scope: string, startedMs: number): void {
    this.db
      .prepare('DELETE FROM pending_writes WHERE agent_id = ? AND scope = ? AND requested_ms <= ?')
      .run(agentId, scope, startedMs);
  }

  pending(): PendingWrite[] {
    return this.db
      .prepare(
        'SELECT id, agent_id AS agentId, scope, requested_ms AS requestedMs, reason FROM pending_writes ORDER BY id',
      )
      .all() as PendingWrite[];
  }

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

  sessionCount(agentId: string, threadKey: string): number {
    const row = this.db
      .prepare(
        'SELECT count(*) AS n FROM node_facts WHERE agent_id = ? AND thread_key = ? AND session = 1',
      )
      .get(agentId, threadKey) as { n: number };
    return row.n;
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
  threads(agentId?: string): ThreadHeadState[] {
    const rows = (
      agentId
        ? this.db.prepare('SELECT state FROM thread_states WHERE agent_id = ?').all(agentId)
        : this.db.prepare('SELECT state FROM thread_states').all()
    ) as { state: string }[];
    return rows.map((row) => JSON.parse(row.state) as ThreadHeadState);
  }

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

  close(): void {
    this.db.close();
  }
}

import { join } from 'node:path';
import { cairnStatePath, randomUuid } from '@cairn/core';
import { type Database, migrate, openDatabase } from '../store';
import { HeadSessions, PackReceipts } from './head-sessions';
import { HeadThreads } from './head-threads';

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
  // A thread's newest facts are read from an index in their order (no sort of
  // all its facts), and its session count is kept by a trigger, not counted.
  `CREATE INDEX node_facts_newest ON node_facts (agent_id, thread_key, at, node_id);
   DROP INDEX node_facts_by_thread;
   CREATE TABLE thread_sessions (
     agent_id TEXT NOT NULL, thread_key TEXT NOT NULL, sessions INTEGER NOT NULL,
     PRIMARY KEY (agent_id, thread_key)) WITHOUT ROWID;
   INSERT INTO thread_sessions
     SELECT agent_id, thread_key, count(*) FROM node_facts WHERE session = 1 GROUP BY agent_id, thread_key;
   CREATE TRIGGER node_facts_session_added AFTER INSERT ON node_facts WHEN new.session = 1 BEGIN
     INSERT INTO thread_sessions (agent_id, thread_key, sessions) VALUES (new.agent_id, new.thread_key, 1)
     ON CONFLICT (agent_id, thread_key) DO UPDATE SET sessions = sessions + 1;
   END;
   CREATE TRIGGER node_facts_session_removed AFTER DELETE ON node_facts WHEN old.session = 1 BEGIN
     UPDATE thread_sessions SET sessions = sessions - 1
     WHERE agent_id = old.agent_id AND thread_key = old.thread_key;
   END;`,
  // The receipts of the last injections (docs/PACKS.md): bounded, newest kept.
  `CREATE TABLE pack_receipts (
     seq INTEGER PRIMARY KEY, receipt_id TEXT NOT NULL UNIQUE, agent_id TEXT NOT NULL,
     session_key TEXT NOT NULL, thread_key TEXT NOT NULL, event TEXT NOT NULL, at TEXT NOT NULL,
     body TEXT NOT NULL);
   CREATE INDEX pack_receipts_by_session ON pack_receipts (session_key, seq);`,
  // The project's own facts; `project_id` names it in default thread keys.
  `CREATE TABLE project_facts (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
];

export interface PendingWrite {
  id: number;
  agentId: string;
  scope: string;
  requestedMs: number;
  reason: string;
}

export type LeaseResult =
  | { ok: true; version: number; lastRendered: string | undefined }
  | { ok: false; holder: string; expiresMs: number };

/**
 * Head records (seed 002 §2): one per (agent_id, scope) with a lease owner,
 * its expiry and a version. A writer meeting another owner's active lease
 * is refused; its write is recorded as pending and retried, never dropped.
 */
export class HeadLeases {
  constructor(private readonly db: Database) {}

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

  /**
   * Records a render that is kept in this file only (no memory file is
   * written for it): this clone's personal head. The caller holds the lease
   * of the head it belongs to.
   */
  keep(agentId: string, scope: string, rendered: string, at = new Date().toISOString()): void {
    this.db
      .prepare(
        `INSERT INTO head_records (agent_id, scope, version, last_rendered, updated_at) VALUES (?, ?, 1, ?, ?)
         ON CONFLICT (agent_id, scope) DO UPDATE SET version = version + 1,
           last_rendered = excluded.last_rendered, updated_at = excluded.updated_at`,
      )
      .run(agentId, scope, rendered, at);
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

  /** The region Cairn last wrote for this head, if it ever wrote one. */
  lastRendered(agentId: string, scope: string): string | undefined {
    const row = this.db
      .prepare('SELECT last_rendered AS last FROM head_records WHERE agent_id = ? AND scope = ?')
      .get(agentId, scope) as { last: string | null } | undefined;
    return row?.last ?? undefined;
  }

  pending(): PendingWrite[] {
    return this.db
      .prepare(
        'SELECT id, agent_id AS agentId, scope, requested_ms AS requestedMs, reason FROM pending_writes ORDER BY id',
      )
      .all() as PendingWrite[];
  }
}

export type { SessionRecord } from './head-sessions';

/**
 * `.cairn/state/heads.db`, the records of working memory, by
 * responsibility: the head leases and deferred writes, the sessions and
 * what was injected into them (with the receipts of the last injections),
 * and the threads' state and facts.
 */
export class HeadStore {
  private readonly db: Database;
  readonly leases: HeadLeases;
  readonly sessions: HeadSessions;
  readonly threads: HeadThreads;
  readonly receipts: PackReceipts;

  constructor(rootDir: string) {
    this.db = openDatabase(join(cairnStatePath(rootDir), 'heads.db'));
    migrate(this.db, HEADS_MIGRATIONS);
    this.leases = new HeadLeases(this.db);
    this.sessions = new HeadSessions(this.db);
    this.threads = new HeadThreads(this.db);
    this.receipts = new PackReceipts(this.db);
  }

  /**
   * The project's id for default thread keys: the one stored by the first
   * session, else `initial` (stored now). Kept in this per-machine file, so
   * it moves with the folder and a rename keeps the project's threads.
   */
  /** The stored project id, or `initial` when none is stored yet (writes nothing). */
  peekProjectId(initial: string): string {
    const stored = this.db
      .prepare(`SELECT value FROM project_facts WHERE key = 'project_id'`)
      .pluck()
      .get();
    return typeof stored === 'string' && stored !== '' ? stored : initial;
  }

  projectId(initial: string): string {
    const read = () =>
      this.db.prepare(`SELECT value FROM project_facts WHERE key = 'project_id'`).pluck().get();
    let stored = read();
    if (stored === undefined) {
      this.db
        .prepare(
          `INSERT INTO project_facts (key, value) VALUES ('project_id', ?) ON CONFLICT DO NOTHING`,
        )
        .run(initial);
      stored = read();
    }
    return typeof stored === 'string' && stored !== '' ? stored : initial;
  }

  /**
   * This clone's author id: 12 hex digits made by the first call and kept
   * in this per-machine file, so every clone (two teammates', or one
   * person's two worktrees) has its own and writes only its own shared
   * files (`fixes/<author>.md`, docs/TEAMS.md). `cairn export`/`import`
   * carry it to a new machine with the rest of the clone's state.
   */
  authorId(): string {
    return this.fact('author_id', () => randomUuid().replace(/-/g, '').slice(0, 12));
  }

  /** A project fact: the stored value, else `initial()` stored now (the first writer wins). */
  private fact(key: string, initial: () => string): string {
    const read = () =>
      this.db.prepare('SELECT value FROM project_facts WHERE key = ?').pluck().get(key);
    let stored = read();
    if (stored === undefined) {
      this.db
        .prepare('INSERT INTO project_facts (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING')
        .run(key, initial());
      stored = read();
    }
    return String(stored);
  }

  /** Runs `work` in one write transaction (the stores' own transactions nest in it). */
  transaction(work: () => void): void {
    this.db.transaction(work).immediate();
  }

  close(): void {
    this.db.close();
  }
}

import type { Database } from '../store';

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

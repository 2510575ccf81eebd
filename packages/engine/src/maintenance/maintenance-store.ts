import { existsSync } from 'node:fs';
import { idPrefixRange, sha256Hex } from '@cairn/core';
import {
  type AnchorCheck,
  anchorsVersion,
  type CodeAnchor,
  maintenanceDatabasePath,
  openMaintenanceDatabase,
  readCachedChecks,
  writeCachedChecks,
} from '../anchors';
import type { Database } from '../store';
import type {
  MaintenanceRun,
  Proposal,
  ProposalKind,
  ProposalState,
  ProposalUndo,
} from './maintenance-types';

/** A proposal's id: the same kind over the same units (and target) is the same proposal. */
export function proposalId(kind: ProposalKind, unitIds: readonly string[], target = ''): string {
  return `P-${sha256Hex(`${kind}\n${[...unitIds].sort().join('\n')}\n${target}`).slice(0, 12)}`;
}

/** Runs kept in the store; older ones are dropped (the audit file keeps its own). */
const RUNS_KEPT = 400;
/** Decided proposals kept; open ones are always kept. Rejections are kept longest (they stop re-proposals). */
const DECIDED_KEPT = 5_000;

export class MaintenanceStore {
  private constructor(private readonly db: Database) {}

  static open(rootDir: string): MaintenanceStore {
    return new MaintenanceStore(openMaintenanceDatabase(rootDir));
  }

  /** Opens the store only when it exists: readers never create it. */
  static openIfAny(rootDir: string): MaintenanceStore | undefined {
    return existsSync(maintenanceDatabasePath(rootDir))
      ? MaintenanceStore.open(rootDir)
      : undefined;
  }

  close(): void {
    this.db.close();
  }

  get(id: string): (Proposal & { undo?: ProposalUndo }) | undefined {
    const row = this.db.prepare('SELECT body, undo FROM proposals WHERE id = ?').get(id) as
      | { body: string; undo: string | null }
      | undefined;
    if (!row) return undefined;
    const proposal = JSON.parse(row.body) as Proposal;
    return row.undo ? { ...proposal, undo: JSON.parse(row.undo) as ProposalUndo } : proposal;
  }

  /** The ids of the proposals whose id starts with `prefix` (a few: the primary key's range). */
  idsStartingWith(prefix: string): string[] {
    const [low, high] = idPrefixRange(prefix);
    const rows = this.db
      .prepare('SELECT id FROM proposals WHERE id >= ? AND id < ? ORDER BY id LIMIT 50')
      .all(low, high) as { id: string }[];
    return rows.map((row) => row.id);
  }

  list(states?: readonly ProposalState[]): Proposal[] {
    const rows = (
      states
        ? this.db
            .prepare(
              `SELECT body FROM proposals WHERE state IN (${states.map(() => '?').join(',')}) ORDER BY created_at, id`,
            )
            .all(...states)
        : this.db.prepare('SELECT body FROM proposals ORDER BY created_at, id').all()
    ) as { body: string }[];
    return rows.map((row) => JSON.parse(row.body) as Proposal);
  }

  /** Inserts a new proposal, or reopens one whose earlier version hit a conflict. */
  put(proposal: Proposal, undo?: ProposalUndo): void {
    this.db
      .prepare(
        `INSERT INTO proposals (id, kind, state, body, undo, created_at, decided_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET state = excluded.state, body = excluded.body,
           undo = excluded.undo, decided_at = excluded.decided_at`,
      )
      .run(
        proposal.id,
        proposal.kind,
        proposal.state,
        JSON.stringify(proposal),
        undo ? JSON.stringify(undo) : null,
        proposal.createdAt,
        proposal.decidedAt ?? null,
      );
  }

  addRun(run: MaintenanceRun): void {
    this.db.transaction(() => {
      this.db
        .prepare('INSERT OR REPLACE INTO runs (run_id, started_at, body) VALUES (?, ?, ?)')
        .run(run.runId, run.startedAt, JSON.stringify(run));
      this.db
        .prepare(
          'DELETE FROM runs WHERE run_id NOT IN (SELECT run_id FROM runs ORDER BY started_at DESC LIMIT ?)',
        )
        .run(RUNS_KEPT);
      this.db
        .prepare(
          `DELETE FROM proposals WHERE state NOT IN ('open', 'rejected') AND id NOT IN (
             SELECT id FROM proposals WHERE state NOT IN ('open', 'rejected')
             ORDER BY decided_at DESC LIMIT ?)`,
        )
        .run(DECIDED_KEPT);
    })();
  }

  runs(limit = 20): MaintenanceRun[] {
    const rows = this.db
      .prepare('SELECT body FROM runs ORDER BY started_at DESC LIMIT ?')
      .all(limit) as { body: string }[];
    return rows.map((row) => JSON.parse(row.body) as MaintenanceRun);
  }

  /** Replaces a unit's anchors (a unit written or approved again is anchored again). */
  setAnchors(memoryId: string, anchors: readonly CodeAnchor[]): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM anchors WHERE memory_id = ?').run(memoryId);
      const insert = this.db.prepare(
        `INSERT OR REPLACE INTO anchors (memory_id, path, symbol, line, span_hash, commit_sha)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      for (const a of anchors) {
        insert.run(memoryId, a.path, a.symbol ?? '', a.line ?? null, a.spanHash, a.commit);
      }
    })();
  }

  anchors(): CodeAnchor[] {
    const rows = this.db
      .prepare(
        "SELECT memory_id, path, symbol, line, span_hash, commit_sha FROM anchors WHERE path <> ''",
      )
      .all() as {
      memory_id: string;
      path: string;
      symbol: string;
      line: number | null;
      span_hash: string;
      commit_sha: string;
    }[];
    return rows.map((row) => ({
      memoryId: row.memory_id,
      path: row.path,
      ...(row.symbol ? { symbol: row.symbol } : {}),
      ...(row.line !== null ? { line: row.line } : {}),
      spanHash: row.span_hash,
      commit: row.commit_sha,
    }));
  }

  /**
   * Units looked at so far: memoryId -> `anchored`, or the HEAD at which
   * the unit cited nothing found (it is looked at again on another HEAD).
   */
  anchoredUnits(): Map<string, string> {
    const rows = this.db.prepare('SELECT memory_id, path, commit_sha FROM anchors').all() as {
      memory_id: string;
      path: string;
      commit_sha: string;
    }[];
    const seen = new Map<string, string>();
    for (const row of rows) {
      if (row.path !== '') seen.set(row.memory_id, 'anchored');
      else if (!seen.has(row.memory_id)) seen.set(row.memory_id, row.commit_sha);
    }
    return seen;
  }

  /** Remembers that a unit cited nothing found at `head`, so the next check at that HEAD skips it. */
  markUnanchored(memoryId: string, head: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM anchors WHERE memory_id = ?').run(memoryId);
      this.db
        .prepare(
          "INSERT INTO anchors (memory_id, path, symbol, line, span_hash, commit_sha) VALUES (?, '', '', NULL, '', ?)",
        )
        .run(memoryId, head);
    })();
  }

  /** The cached checks for `cacheKey` (HEAD and the anchors' version), if this HEAD was checked. */
  cachedChecks(cacheKey: string): AnchorCheck[] | undefined {
    return readCachedChecks(this.db, cacheKey);
  }

  /** Keeps only the newest check: a cache for one HEAD. */
  cacheChecks(cacheKey: string, checks: readonly AnchorCheck[], at: string): void {
    writeCachedChecks(this.db, cacheKey, checks, at);
  }

  /** A version of the anchor table: changes whenever an anchor is added, moved or dropped. */
  anchorsVersion(): string {
    return anchorsVersion(this.db);
  }
}

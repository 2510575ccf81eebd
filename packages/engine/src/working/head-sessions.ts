import { redactSecrets } from '@cairn/core';
import type { SqliteStatement } from '@cairn/sqlite';
import type { ContextPack, PackProfileName } from '../packs';
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

/** Receipts kept per project (heads.db): the newest, older ones dropped as new ones come. */
export const PACK_RECEIPTS_KEPT = 50;

/** The lifecycle events that inject a pack. */
export type InjectionEvent = 'session-start' | 'user-prompt-submit' | 'tool-use' | 'pre-compaction';

/**
 * What one injection showed the agent and why: the pack (item texts cut to
 * a line, already redacted; the rendered text left out), the event, who it
 * was for, and the tokens of the injected text against the budget.
 */
export interface InjectionReceipt {
  receiptId: string;
  event: InjectionEvent;
  /** The profile the pack was built under (docs/PACKS.md "Profiles"). */
  profile?: PackProfileName;
  agentId: string;
  sessionKey: string;
  threadKey: string;
  /** The session epoch (bumped by each compaction). */
  epoch: number;
  at: string;
  /** Tokens of the injected text as injected (head items, frame and planes), by `pack.budget.counter`. */
  tokens: number;
  /** The one budget of the turn (`memory.contextBudgetTokens`). */
  budgetTokens: number;
  pack: ContextPack;
}

export interface ReceiptQuery {
  sessionKey?: string;
  agentId?: string;
  /** Newest first; default 1. */
  limit?: number;
}

/** Item texts kept in a receipt: enough to recognise the item, not the whole of it. */
const RECEIPT_TEXT_CHARS = 160;

const clip = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > RECEIPT_TEXT_CHARS ? `${flat.slice(0, RECEIPT_TEXT_CHARS - 1)}…` : flat;
};

/**
 * The receipt as stored: the pack without its rendered text, item texts
 * cut to a line, and the query (a prompt) redacted and cut the same way.
 */
export function receiptBody(receipt: InjectionReceipt): InjectionReceipt {
  const items = receipt.pack.items.map((item) => ({
    ...item,
    text: clip(item.text),
    ...(item.quotes
      ? { quotes: item.quotes.map((quote) => ({ ...quote, text: clip(quote.text) })) }
      : {}),
  }));
  const query = clip(redactSecrets(receipt.pack.query).text);
  return { ...receipt, pack: { ...receipt.pack, query, text: '', items } };
}

/** The receipts of the last injections, in `.cairn/state/heads.db`. */
export class PackReceipts {
  private statements: { insert: SqliteStatement; prune: SqliteStatement } | undefined;

  constructor(private readonly db: Database) {}

  /** Stores a receipt and drops those beyond the newest `PACK_RECEIPTS_KEPT`. */
  record(receipt: InjectionReceipt): void {
    const body = JSON.stringify(receiptBody(receipt));
    this.statements ??= {
      insert: this.db.prepare(
        `INSERT INTO pack_receipts (receipt_id, agent_id, session_key, thread_key, event, at, body)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      prune: this.db.prepare('DELETE FROM pack_receipts WHERE seq <= ?'),
    };
    const { insert, prune } = this.statements;
    this.db
      .transaction(() => {
        const { lastInsertRowid } = insert.run(
          receipt.receiptId,
          receipt.agentId,
          receipt.sessionKey,
          receipt.threadKey,
          receipt.event,
          receipt.at,
          body,
        );
        prune.run(Number(lastInsertRowid) - PACK_RECEIPTS_KEPT);
      })
      .immediate();
  }

  /** The newest receipts, optionally of one session or agent. */
  last(query: ReceiptQuery = {}): InjectionReceipt[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (query.sessionKey !== undefined) {
      where.push('session_key = ?');
      args.push(query.sessionKey);
    }
    if (query.agentId !== undefined) {
      where.push('agent_id = ?');
      args.push(query.agentId);
    }
    const rows = this.db
      .prepare(
        `SELECT body FROM pack_receipts ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY seq DESC LIMIT ?`,
      )
      .all(...args, Math.max(1, query.limit ?? 1)) as { body: string }[];
    return rows.map((row) => JSON.parse(row.body) as InjectionReceipt);
  }
}

import { redactSecrets } from '@cairn/core';
import type { SqliteStatement } from '@cairn/sqlite';
import type { ContextPack, PackProfileName } from '../packs';
import type { Database } from '../store';

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

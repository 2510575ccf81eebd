import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { escapePackItem } from '../packs';
import type { InjectionReceipt, ReceiptQuery } from './head-sessions';
import { HeadStore } from './head-store';

/**
 * The newest stored receipts of a project's injections (`cairn pack
 * --last`), read without creating `heads.db`: a project no hook has run in
 * has none. Their items are escaped as a pack's structured fields are (a
 * receipt stored by an older Cairn kept them as they were).
 */
export function lastPackReceipts(rootDir: string, query: ReceiptQuery = {}): InjectionReceipt[] {
  if (!existsSync(join(cairnStatePath(rootDir), 'heads.db'))) return [];
  const store = new HeadStore(rootDir);
  try {
    return store.receipts.last(query).map((receipt) => ({
      ...receipt,
      pack: { ...receipt.pack, items: receipt.pack.items.map(escapePackItem) },
    }));
  } finally {
    store.close();
  }
}

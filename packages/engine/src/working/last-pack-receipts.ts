import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { HeadStore } from './head-store';
import type { InjectionReceipt, ReceiptQuery } from './pack-receipts';

/**
 * The newest stored receipts of a project's injections (`cairn pack
 * --last`), read without creating `heads.db`: a project no hook has run in
 * has none.
 */
export function lastPackReceipts(rootDir: string, query: ReceiptQuery = {}): InjectionReceipt[] {
  if (!existsSync(join(cairnStatePath(rootDir), 'heads.db'))) return [];
  const store = new HeadStore(rootDir);
  try {
    return store.receipts.last(query);
  } finally {
    store.close();
  }
}

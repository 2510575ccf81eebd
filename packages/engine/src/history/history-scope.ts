import { basename } from 'node:path';
import { slugify } from '../store';

/**
 * Where task history is recorded and read (seed 004 §1: isolated by
 * repository and namespace). history.db and lineage.db live in the
 * project, so their rows are the project's: readers keep to the namespace
 * (`memory.namespace`); the repo is the project folder's name, stored on
 * each row and record for shared stores.
 */
export const DEFAULT_HISTORY_NAMESPACE = 'default';

export interface HistoryScope {
  repo: string;
  namespace: string;
}

/** The repo task history stores: the project folder's name as a slug. */
export function historyRepo(rootDir: string): string {
  return slugify(basename(rootDir), 80);
}

/** The namespace an option names, else `default`. */
export function namespaceOf(options: { namespace?: string | undefined } = {}): string {
  return options.namespace ?? DEFAULT_HISTORY_NAMESPACE;
}

export function historyScope(rootDir: string, namespace?: string): HistoryScope {
  return { repo: historyRepo(rootDir), namespace: namespaceOf({ namespace }) };
}

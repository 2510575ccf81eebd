import { existsSync } from 'node:fs';
import {
  CAIRN_STATE_DIR,
  formatError,
  isUnsafePathError,
  type MemoryPoolDefinition,
  type PoolSource,
  type SourceFile,
} from '@cairn/core';
import {
  DIGEST_RECORDS,
  decodeRunDigest,
  digestNamespace,
  digestRecordPath,
  HISTORY_POOL_ID,
  type HistoryScope,
  historyDatabasePath,
  historyScope,
  openHistoryDatabase,
  PATTERN_RECORDS,
  patternDetail,
  patternRecordPath,
  renderDigestRecord,
  renderPatternRecord,
} from '../history';
import type { NodeHead } from '../lineage';
import { type LineageStore, lineageDatabasePath, openLineageStore } from '../lineage';
import type { Database } from '../store';

export { HISTORY_POOL_ID };

/**
 * The warm `history` pool (seed 004 §6.2): the namespace's run digests
 * (the newest version of each run) and fix patterns (deprecated ones left
 * out), each a rendered markdown record whose mtime is its last update, so
 * every index refreshes them incrementally like files. It only reads
 * `.cairn/state/` (never creates a database) and never throws: a failing
 * read lists nothing and warns. A recall of the hot tier never asks it.
 */
export interface HistoryRecords {
  definition: MemoryPoolDefinition;
  source: PoolSource;
  close(): void;
}

/** How long a read keeps the databases open for the reads that follow it. */
const IDLE_CLOSE_MS = 2000;

interface Listed {
  /** A digest: the agent and the node of the run's newest version. */
  digest?: { agentId: string; nodeId: string };
  /** A pattern: its id. */
  pattern?: string;
}

class HistoryHandles {
  private history: Database | undefined;
  private lineage: LineageStore | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly rootDir: string) {}

  private touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.close(), IDLE_CLOSE_MS);
    this.timer.unref();
  }

  historyDb(): Database | undefined {
    if (!this.history && existsSync(historyDatabasePath(this.rootDir))) {
      this.history = openHistoryDatabase(this.rootDir);
    }
    this.touch();
    return this.history;
  }

  lineageStore(): LineageStore | undefined {
    if (!this.lineage && existsSync(lineageDatabasePath(this.rootDir))) {
      this.lineage = openLineageStore(this.rootDir);
    }
    this.touch();
    return this.lineage;
  }

  close(): void {
    clearTimeout(this.timer);
    this.history?.close();
    this.lineage?.close();
    this.history = undefined;
    this.lineage = undefined;
  }
}

const msOf = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

function listPatterns(db: Database, namespace: string, into: Map<string, Listed>): SourceFile[] {
  const rows = db
    .prepare(
      `SELECT id, updated_at AS updatedAt, length(steps) + length(normalized) AS bytes
       FROM patterns WHERE namespace = ? AND state <> 'deprecated' ORDER BY id`,
    )
    .all(namespace) as { id: string; updatedAt: string; bytes: number }[];
  return rows.map((row) => {
    const path = patternRecordPath(row.id);
    into.set(path, { pattern: row.id });
    return { path, bytes: row.bytes, mtimeMs: msOf(row.updatedAt) };
  });
}

/**
 * The newest digest node of each run of every agent in the namespace. A
 * node's namespace is read from its text once per process (the lineage is
 * append-only, so a node never changes).
 */
function listDigests(
  store: LineageStore,
  namespace: string,
  namespaces: Map<string, string | null>,
  into: Map<string, Listed>,
): SourceFile[] {
  const newest = new Map<string, NodeHead & { sessionKey: string }>();
  for (const head of store.nodeHeads('run_digest')) {
    if (head.sessionKey !== null)
      newest.set(`${head.agentId}\0${head.sessionKey}`, { ...head, sessionKey: head.sessionKey });
  }
  const files: SourceFile[] = [];
  for (const head of newest.values()) {
    if (!namespaces.has(head.id)) {
      const digest = decodeRunDigest(store.getNode(head.agentId, head.id).text);
      namespaces.set(head.id, digest ? digestNamespace(digest) : null);
    }
    if (namespaces.get(head.id) !== namespace) continue;
    const path = digestRecordPath(head.agentId, head.sessionKey);
    into.set(path, { digest: { agentId: head.agentId, nodeId: head.id } });
    // The node id changes with each version: its length keeps the size honest enough to differ.
    files.push({ path, bytes: head.id.length, mtimeMs: msOf(head.createdAt) });
  }
  return files;
}

/** The record a listing named, rendered from the databases as they are now. */
function renderListed(
  handles: HistoryHandles,
  item: Listed | undefined,
  scope: HistoryScope,
): string | undefined {
  if (item?.pattern) {
    const db = handles.historyDb();
    const detail = db ? patternDetail(db, item.pattern, scope.namespace) : undefined;
    return detail && detail.state !== 'deprecated' ? renderPatternRecord(detail, scope) : undefined;
  }
  if (!item?.digest) return undefined;
  const node = handles.lineageStore()?.getNode(item.digest.agentId, item.digest.nodeId);
  const digest = node ? decodeRunDigest(node.text) : undefined;
  if (!node || !digest) return undefined;
  return renderDigestRecord({ nodeId: node.id, createdAt: node.createdAt, digest }, scope);
}

/** The history pool of a project, for the namespace its settings name. */
export function createHistoryRecords(
  rootDir: string,
  namespace: string,
  warn: (message: string) => void,
): HistoryRecords {
  const scope = historyScope(rootDir, namespace);
  const handles = new HistoryHandles(rootDir);
  const namespaces = new Map<string, string | null>();
  let listed = new Map<string, Listed>();
  const failed = (what: string, error: unknown) => {
    warn(`the history pool could not ${what}: ${formatError(error)}`);
  };
  const list = (): SourceFile[] => {
    const next = new Map<string, Listed>();
    const files: SourceFile[] = [];
    try {
      const db = handles.historyDb();
      if (db) files.push(...listPatterns(db, scope.namespace, next));
      const store = handles.lineageStore();
      if (store) files.push(...listDigests(store, scope.namespace, namespaces, next));
    } catch (error) {
      // A link under .cairn/state (lineage.db, history.db) fails the recall: never answered around.
      if (isUnsafePathError(error)) throw error;
      failed('list the task history', error);
      return [];
    }
    listed = next;
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  };
  return {
    definition: { id: HISTORY_POOL_ID, tier: 'warm', path: `.cairn/${CAIRN_STATE_DIR}` },
    source: {
      key: HISTORY_POOL_ID,
      records: true,
      list,
      async read(path) {
        try {
          const text = renderListed(handles, listed.get(path), scope);
          return text === undefined ? undefined : Buffer.from(text);
        } catch (error) {
          failed(`read ${path}`, error);
          return undefined;
        }
      },
    },
    close: () => handles.close(),
  };
}

/** The record folders, for status lines. */
export const HISTORY_RECORD_FOLDERS = [DIGEST_RECORDS, PATTERN_RECORDS] as const;

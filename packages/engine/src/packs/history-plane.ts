import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { LINEAGE_DB_FILENAME, type LineageStore, openLineageStore } from '../lineage';
import type { TemporalNode, TemporalNodeKind } from '../lineage/lineage-types';
import type { PackInput } from './compose-pack';
import type { PackExclusion } from './pack-types';

export interface HistoryRequest {
  rootDir: string;
  agentId: string;
  threadKey?: string;
  query: string;
  /** A lineage store the caller already holds open (the hooks'): used, not closed. */
  store?: () => LineageStore;
  /** The newest nodes of the thread considered; default 20 (the hooks read fewer). */
  maxNodes?: number;
  /** false: other threads are not looked up for the receipt (the hooks skip that read). */
  otherThreads?: boolean;
}

export interface HistoryResult {
  candidates: PackInput[];
  /** Nodes of this agent's other threads: left out, named in the receipt. */
  otherThreads: PackExclusion[];
  /** Set when the plane had nothing to read (no thread, no lineage yet). */
  note?: string;
}

/** Until issue 11's run digests: session summaries and compaction nodes. */
const KINDS: TemporalNodeKind[] = ['session_summary', 'compaction'];
/** The newest nodes of the thread considered. */
const MAX_NODES = 20;
/** Nodes of other threads named in the receipt, at most. */
const MAX_OTHER = 10;

const terms = (text: string) =>
  new Set(text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? ([] as string[]));

/** Query terms the node shares, plus a recency bonus by rank (newest 1, then 1/2, 1/3...). */
function score(node: TemporalNode, rank: number, query: Set<string>): number {
  const text = terms(node.text);
  let shared = 0;
  for (const term of query) if (text.has(term)) shared += 1;
  return shared + 1 / (rank + 1);
}

function toCandidate(node: TemporalNode, rank: number, query: Set<string>): PackInput {
  const label = node.kind === 'compaction' ? 'compaction summary' : 'session summary';
  return {
    id: node.id,
    plane: 'history',
    text: node.text,
    source: `lineage ${label} (${node.source})`,
    trustClass: 'derived',
    provenance: { kind: 'lineage', id: node.id },
    recency: node.endAt,
    score: score(node, rank, query),
    why: `${label} of thread ${node.threadKey}${rank === 0 ? ', the latest' : ''}`,
    dedupeKey: node.text.trim().toLowerCase(),
  };
}

function read(store: LineageStore, request: HistoryRequest & { threadKey: string }): HistoryResult {
  const query = terms(request.query);
  const own = store.listNodes({
    agentId: request.agentId,
    threadKey: request.threadKey,
    kinds: KINDS,
    order: 'desc',
    limit: request.maxNodes ?? MAX_NODES,
  });
  const others =
    request.otherThreads === false
      ? []
      : store
          .listNodes({ agentId: request.agentId, kinds: KINDS, order: 'desc', limit: MAX_NODES })
          .filter((node) => node.threadKey !== request.threadKey)
          .slice(0, MAX_OTHER);
  return {
    candidates: own.map((node, rank) => toCandidate(node, rank, query)),
    otherThreads: others.map((node) => ({
      id: node.id,
      plane: 'history',
      reason: 'other-thread',
      tokenCost: 0,
    })),
  };
}

/**
 * The history plane, read only: this agent's session summaries and
 * compaction nodes of the request's thread, newest first. Without a thread
 * or a lineage database it has nothing to read and says so; it never
 * creates the database.
 */
export function historyCandidates(request: HistoryRequest): HistoryResult {
  const empty = { candidates: [], otherThreads: [] };
  if (!request.threadKey) return { ...empty, note: 'no thread given: history reads one thread' };
  if (!existsSync(join(cairnStatePath(request.rootDir), LINEAGE_DB_FILENAME))) {
    return { ...empty, note: 'no lineage yet' };
  }
  if (request.store) return read(request.store(), { ...request, threadKey: request.threadKey });
  const store = openLineageStore(request.rootDir);
  try {
    return read(store, { ...request, threadKey: request.threadKey });
  } finally {
    store.close();
  }
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import {
  digestNamespace,
  latestRunDigest,
  listRunDigests,
  namespaceOf,
  type StoredRunDigest,
} from '../history';
import type { TemporalNode, TemporalNodeKind } from '../lineage';
import { LINEAGE_DB_FILENAME, type LineageStore, openLineageStore } from '../lineage';
import { keptReaders } from '../store';
import type { PackInput } from './compose-pack';
import {
  digestCandidates,
  noRecentPatterns,
  patternCandidates,
  type RecentPatterns,
  recentSignatures,
  terms,
} from './history-runs';
import type { PackExclusion } from './pack-types';

export interface HistoryRequest {
  rootDir: string;
  agentId: string;
  threadKey?: string;
  query: string;
  /** The run the pack is for (seed 004 §7 `run_ref`): its digest and its signatures' patterns come first. */
  runRef?: string;
  /**
   * Other threads the caller names as relevant to this one (seed 002 §6's
   * explicit relevance signal): their run digests are read with the thread's.
   */
  relatedThreads?: readonly string[];
  /** The pattern store's recent patterns; default none (the seam the pattern store fills). */
  recentPatterns?: RecentPatterns;
  /** The memory namespace (`memory.namespace`): digests and patterns of others are left out. */
  namespace?: string;
  /** A lineage store the caller already holds open (the hooks'): used, not closed. */
  store?: () => LineageStore;
  /** The newest nodes of the thread (and run digests) considered; default 20 (the hooks read fewer). */
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

/** The thread's session summaries and compaction nodes (run digests are read apart). */
const KINDS: TemporalNodeKind[] = ['session_summary', 'compaction'];
/** The newest nodes of the thread considered. */
const MAX_NODES = 20;
/** Nodes of other threads named in the receipt, at most. */
const MAX_OTHER = 10;
const NO_THREAD = 'no thread given: summaries are read from one thread (run digests from all)';
/** The agent's latest run digests (one per run) the similar runs are chosen from. */
const DIGEST_POOL = 100;

/** Term sets of nodes read lately, by node id: a node's text never changes (the lineage is append-only). */
const nodeTerms = new Map<string, Set<string>>();
const MAX_NODE_TERMS = 512;

function termsOfNode(node: TemporalNode): Set<string> {
  let kept = nodeTerms.get(node.id);
  if (!kept) {
    kept = terms(node.text);
    if (nodeTerms.size >= MAX_NODE_TERMS) nodeTerms.delete(nodeTerms.keys().next().value!);
    nodeTerms.set(node.id, kept);
  }
  return kept;
}

/** Query terms the node shares, plus a recency bonus by rank (newest 1, then 1/2, 1/3...). */
function score(node: TemporalNode, rank: number, query: Set<string>): number {
  const text = termsOfNode(node);
  let shared = 0;
  for (const term of query) if (text.has(term)) shared += 1;
  return shared + 1 / (rank + 1);
}

/**
 * A summary or compaction node: `raw`. Its words are the transcript's
 * (sentences of prompts and answers the extractive summarizer copies) or a
 * model's retelling of it, tool output included (a harness's compaction
 * summary, a model summary), so it is only ever a quoted excerpt. The
 * thread head and the run digest say in Cairn's words what it holds.
 */
function toCandidate(node: TemporalNode, rank: number, query: Set<string>): PackInput {
  const label = node.kind === 'compaction' ? 'compaction summary' : 'session summary';
  return {
    id: node.id,
    plane: 'history',
    text: node.text,
    // Relevance reads its sentences, not its section titles (`## Decisions`, `## Next steps`).
    matchText: node.text.replace(/^#{1,6}[ \t].*$/gm, ''),
    source: `lineage ${label} (${node.source})`,
    trustClass: 'raw',
    provenance: { kind: 'lineage', id: node.id },
    recency: node.endAt,
    score: score(node, rank, query),
    why: `${label} of thread ${node.threadKey}${rank === 0 ? ', the latest' : ''}`,
    dedupeKey: node.text.trim().toLowerCase(),
  };
}

function threadNodes(store: LineageStore, request: HistoryRequest & { threadKey: string }) {
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
      plane: 'history' as const,
      reason: 'other-thread' as const,
      tokenCost: 0,
    })),
  };
}

/**
 * The threads whose run digests a request reads: its thread and the
 * threads it names as related; undefined (every thread) for a request
 * without a thread, which is scoped to none.
 */
function digestThreads(request: HistoryRequest): string[] | undefined {
  if (!request.threadKey) return undefined;
  return [...new Set([request.threadKey, ...(request.relatedThreads ?? [])])];
}

const newestFirst = (a: StoredRunDigest, b: StoredRunDigest) =>
  a.digest.startedAt < b.digest.startedAt ? 1 : a.digest.startedAt > b.digest.startedAt ? -1 : 0;

/** This agent's digests of the request's threads (every thread without one), newest first. */
function scopedDigests(store: LineageStore, request: HistoryRequest): StoredRunDigest[] {
  const limit = Math.min(DIGEST_POOL, request.maxNodes ?? DIGEST_POOL);
  const threads = digestThreads(request);
  const read = (threadKey?: string) =>
    listRunDigests(store, { agentId: request.agentId, limit, ...(threadKey ? { threadKey } : {}) });
  const digests = threads ? threads.flatMap(read) : read();
  if (threads && threads.length > 1) digests.sort(newestFirst);
  const namespace = namespaceOf(request);
  return digests.slice(0, limit).filter((entry) => digestNamespace(entry.digest) === namespace);
}

/**
 * Digests of similar runs of the request's thread (and of the threads it
 * names as related, and the run `runRef` names, whatever its thread: the
 * explicit relevance signals of seed 002 §6), and the fix patterns of the
 * signatures they met.
 */
function runCandidates(store: LineageStore, request: HistoryRequest): PackInput[] {
  const ordered = withRunFirst(store, request, scopedDigests(store, request));
  const signatures = recentSignatures(ordered);
  return [
    ...digestCandidates(ordered, request.query, request.threadKey, request.runRef),
    ...fixPatterns(request, signatures),
  ];
}

/** Digests of other threads, named in the receipt as left out (`other-thread`); ten at most. */
function otherThreadDigests(store: LineageStore, request: HistoryRequest): PackExclusion[] {
  const threads = digestThreads(request);
  if (!threads || request.otherThreads === false) return [];
  return listRunDigests(store, { agentId: request.agentId, limit: MAX_NODES })
    .filter((entry) => !threads.includes(entry.digest.threadKey))
    .filter((entry) => entry.digest.runId !== request.runRef)
    .slice(0, MAX_OTHER)
    .map((entry) => ({
      id: entry.nodeId,
      plane: 'history' as const,
      reason: 'other-thread' as const,
      tokenCost: 0,
    }));
}

/** The digests with the request's run first (read apart when it is older than the pool). */
function withRunFirst(
  store: LineageStore,
  request: HistoryRequest,
  digests: StoredRunDigest[],
): StoredRunDigest[] {
  const { runRef } = request;
  if (!runRef) return digests;
  const own =
    digests.find((entry) => entry.digest.runId === runRef) ??
    latestRunDigest(store, request.agentId, runRef);
  if (!own || digestNamespace(own.digest) !== namespaceOf(request)) return digests;
  return [own, ...digests.filter((entry) => entry !== own)];
}

/** The fix patterns, those of the signatures the recent digests met first. */
function fixPatterns(request: HistoryRequest, signatures: string[]): PackInput[] {
  const patterns = (request.recentPatterns ?? noRecentPatterns)({
    rootDir: request.rootDir,
    agentId: request.agentId,
    signatures,
    limit: 20,
    namespace: namespaceOf(request),
  });
  return patternCandidates(patterns, signatures, request.query);
}

function read(store: LineageStore, request: HistoryRequest): HistoryResult {
  const runs = runCandidates(store, request);
  if (!request.threadKey) {
    return {
      candidates: runs,
      otherThreads: [],
      note: NO_THREAD,
    };
  }
  const thread = threadNodes(store, { ...request, threadKey: request.threadKey });
  return {
    candidates: [...thread.candidates, ...runs],
    otherThreads: [...thread.otherThreads, ...otherThreadDigests(store, request)],
  };
}

/**
 * The history plane, read only: this agent's session summaries and
 * compaction nodes of the request's thread, newest first; digests of
 * similar runs of that thread, of the threads the request names as
 * related and of the run it is for (another thread's only on such a
 * signal: seed 002 §6, docs/SECURITY.md "Isolation"); and the fix patterns
 * of the signatures recent runs met. Without a lineage database it has
 * nothing to read and says so; it never creates the database.
 */
export function historyCandidates(request: HistoryRequest): HistoryResult {
  if (!existsSync(join(cairnStatePath(request.rootDir), LINEAGE_DB_FILENAME))) {
    // No lineage, no digests; the pattern store (history.db) is read apart.
    const note = request.threadKey ? 'no lineage yet' : NO_THREAD;
    return { candidates: fixPatterns(request, []), otherThreads: [], note };
  }
  if (request.store) return read(request.store(), request);
  return lineageReaders.read(request.rootDir, { candidates: [], otherThreads: [] }, (store) =>
    read(store, request),
  );
}

/** `cairn pack` and the MCP tool read the lineage through a store kept a few seconds. */
const lineageReaders = keptReaders<LineageStore>({
  path: (rootDir) => join(cairnStatePath(rootDir), LINEAGE_DB_FILENAME),
  open: openLineageStore,
  close: (store) => store.close(),
});

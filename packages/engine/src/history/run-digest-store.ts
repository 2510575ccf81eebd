import { CairnError, idPrefixOf, NODE_ID_KIND } from '@cairn/core';
import type { LineageStore, TemporalNode } from '../lineage';
import { renderRunDigest } from './render-run-digest';
import { type RunDigest, runDigestSchema, type StoredRunDigest } from './run-digest-types';

/**
 * Digests live in the lineage as `run_digest` nodes: the node's text is the
 * markdown a reader sees, followed by the digest itself as JSON in a
 * closing comment, so the node is the whole record and the lineage schema
 * stays as it is. The lineage is append-only: a run digested again (a
 * resumed session, a model summary that arrived later) gets a new node, and
 * readers take the newest node of each run.
 */

const OPEN = '\n\n<!-- cairn:run-digest ';
const CLOSE = ' -->';
/** Runs listed at most, and versions of one run read at most. */
const SCAN_LIMIT = 500;

/**
 * The JSON's field names: `threadKey` and `sessionKey` are stored as
 * `thread` and `session`, since `"…Key": "value"` reads as a secret
 * assignment to the redaction every reader of lineage text applies.
 */
function toStored({ threadKey, evidence, ...rest }: RunDigest): object {
  const { sessionKey, ...refs } = evidence;
  return { ...rest, thread: threadKey, evidence: { session: sessionKey, ...refs } };
}

function fromStored(json: unknown): unknown {
  if (!json || typeof json !== 'object') return json;
  const { thread, evidence, ...rest } = json as Record<string, unknown>;
  const { session, ...refs } = (evidence ?? {}) as Record<string, unknown>;
  return { ...rest, threadKey: thread, evidence: { sessionKey: session, ...refs } };
}

export function encodeRunDigest(digest: RunDigest): string {
  // `-->` can only occur inside a JSON string, where `\u003e` reads back the same.
  const json = JSON.stringify(toStored(digest)).replace(/-->/g, '--\\u003e');
  return `${renderRunDigest(digest)}${OPEN}${json}${CLOSE}`;
}

/** The digest in a node's text; undefined for text that holds none or a damaged one. */
export function decodeRunDigest(text: string): RunDigest | undefined {
  const start = text.lastIndexOf(OPEN);
  if (start === -1 || !text.endsWith(CLOSE)) return undefined;
  try {
    const json: unknown = JSON.parse(text.slice(start + OPEN.length, -CLOSE.length));
    const parsed = runDigestSchema.safeParse(fromStored(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Digests decoded lately, by node id: nodes are append-only, so a node's
 * digest never changes, and the pack's history plane decodes the same
 * recent runs at every call of a long-lived process. Oldest out first.
 */
const decoded = new Map<string, StoredRunDigest | null>();
const DECODED_KEPT = 2_000;

function stored(node: TemporalNode): StoredRunDigest | undefined {
  const known = decoded.get(node.id);
  if (known !== undefined) return known ?? undefined;
  const digest = node.kind === 'run_digest' ? decodeRunDigest(node.text) : undefined;
  const entry = digest ? { nodeId: node.id, createdAt: node.createdAt, digest } : undefined;
  decoded.set(node.id, entry ?? null);
  for (const oldest of decoded.keys()) {
    if (decoded.size <= DECODED_KEPT) break;
    decoded.delete(oldest);
  }
  return entry;
}

/** For a sort, newest first; ties keep the scan order (its rowid, newest first). */
const descending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

/**
 * Newest first, one per run (the newest node of each), at most `limit`. A
 * run's older nodes are skipped by session key before any JSON is parsed.
 */
function latestPerRun(nodes: readonly TemporalNode[], limit: number): StoredRunDigest[] {
  const seen = new Set<string>();
  const out: StoredRunDigest[] = [];
  for (const node of nodes) {
    if (out.length >= limit) break;
    if (node.sessionKey !== null && seen.has(node.sessionKey)) continue;
    const entry = stored(node);
    if (!entry || seen.has(entry.digest.runId)) continue;
    seen.add(entry.digest.runId);
    out.push(entry);
  }
  return out;
}

export interface ListRunDigestsOptions {
  agentId: string;
  threadKey?: string;
  /** Default 20. */
  limit?: number;
}

/** The latest digest of each run, most recent run first. */
export function listRunDigests(
  store: LineageStore,
  options: ListRunDigestsOptions,
): StoredRunDigest[] {
  const nodes = store.listNodes({
    agentId: options.agentId,
    ...(options.threadKey ? { threadKey: options.threadKey } : {}),
    kinds: ['run_digest'],
    // A run's older versions are skipped in SQL: each wanted run costs one node read.
    newestPerSession: true,
    order: 'desc',
    limit: Math.min(SCAN_LIMIT, options.limit ?? 20),
  });
  // Versions of one run share its start, so the scan order puts the newest version first.
  const sorted = [...nodes].sort(
    (a, b) => descending(a.startAt, b.startAt) || descending(a.createdAt, b.createdAt),
  );
  return latestPerRun(sorted, options.limit ?? 20);
}

/**
 * One run's latest digest, found by its run id (the session key its digest
 * nodes carry, through the session index), or undefined: however many runs
 * the agent has, only that run's few versions are read.
 */
export function latestRunDigest(
  store: LineageStore,
  agentId: string,
  runId: string,
): StoredRunDigest | undefined {
  const versions = store.listNodes({
    agentId,
    sessionKey: runId,
    kinds: ['run_digest'],
    order: 'desc',
    limit: SCAN_LIMIT,
  });
  return latestPerRun(
    [...versions].sort((a, b) => descending(a.createdAt, b.createdAt)),
    1,
  ).find((entry) => entry.digest.runId === runId);
}

/** The digest node a start of its id names; undefined when none (CONFLICT when several). */
function digestNodeByPrefix(store: LineageStore, agentId: string, prefix: string) {
  try {
    return stored(store.getNode(agentId, store.resolveNodeId(agentId, `node:${prefix}`)));
  } catch (error) {
    if (CairnError.isInstance(error) && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

/** A run's latest digest by run id (its session key) or by a digest node id; NOT_FOUND otherwise. */
export function getRunDigest(store: LineageStore, agentId: string, run: string): StoredRunDigest {
  const entry = run.startsWith('node:')
    ? stored(store.getNode(agentId, store.resolveNodeId(agentId, run)))
    : latestRunDigest(store, agentId, run);
  if (entry) return entry;
  // Not a run id: the start of a digest node's id, typed without its `node:`.
  const byNode = idPrefixOf(run, NODE_ID_KIND)
    ? digestNodeByPrefix(store, agentId, run)
    : undefined;
  if (byNode) return byNode;
  throw new CairnError('NOT_FOUND', `No run digest for ${run} of agent ${agentId}`, {
    hint: 'list runs with `cairn history runs`; a digest is written at session end',
    details: { run, agentId },
  });
}

/**
 * What makes two digests of one run the same record: the end time of the
 * hook and the id of the summary node (a repeated session end writes a new
 * summary saying the same) aside.
 */
const sameRecord = (a: RunDigest, b: RunDigest) =>
  a.evidence.entries === b.evidence.entries &&
  a.narrativeSource === b.narrativeSource &&
  JSON.stringify([a.decisions, a.nextSteps, a.gotchas]) ===
    JSON.stringify([b.decisions, b.nextSteps, b.gotchas]) &&
  a.evidence.commits.join() === b.evidence.commits.join();

/**
 * Stores a digest, idempotent by run id: when the run's latest digest
 * already covers the same transcript entries, narrative and commits,
 * nothing is written and its node is returned.
 */
export function recordRunDigest(
  store: LineageStore,
  digest: RunDigest,
): { nodeId: string; written: boolean } {
  const previous = latestRunDigest(store, digest.agentId, digest.runId);
  if (previous && sameRecord(previous.digest, digest)) {
    return { nodeId: previous.nodeId, written: false };
  }
  // ISO instants sort as text: the later of the two.
  const endAt = [digest.startedAt, digest.endedAt].sort()[1]!;
  const node = store.addNode({
    agentId: digest.agentId,
    kind: 'run_digest',
    threadKey: digest.threadKey,
    sessionKey: digest.runId,
    startAt: digest.startedAt,
    endAt,
    source: `digest/${digest.narrativeSource}`.slice(0, 200),
    text: encodeRunDigest({ ...digest, endedAt: endAt }),
  });
  return { nodeId: node.id, written: true };
}

import { type RedactionResult, redactSecrets } from '@cairn/core';
import type { LineageStore } from './lineage-store';
import type { TemporalNode, TranscriptEntry } from './lineage-types';

/** Entries and characters an expansion returns at most; page further with getTranscript. */
export const EXPAND_MAX_ENTRIES = 50;
export const EXPAND_MAX_ENTRY_CHARS = 2000;
/** Roots shown on each side of a root node. */
export const EXPAND_NEIGHBOUR_ROOTS = 3;

export interface ExcerptEntry extends TranscriptEntry {
  /** True when `text` was cut to EXPAND_MAX_ENTRY_CHARS. */
  clipped: boolean;
}

export interface TranscriptExcerpt {
  sessionKey: string;
  harness: string | null;
  startedAt: string;
  /** Entries in the whole transcript. */
  totalEntries: number;
  /** Oldest first: the node's time range when it has entries there, else the start. */
  entries: ExcerptEntry[];
  /** More entries exist than `entries` shows. */
  truncated: boolean;
}

export interface NodeExpansion {
  node: TemporalNode;
  /** Condensed nodes that consumed this one. */
  parents: TemporalNode[];
  /** Nodes this one consumed. */
  children: TemporalNode[];
  /** Other children of the same parents; for a root, the thread's neighbouring roots in time. */
  siblings: TemporalNode[];
  thread: { threadKey: string; nodeCount: number };
  /** `UNIT:<uuid>` ids linked to the node. */
  linkedUnits: string[];
  transcript: TranscriptExcerpt | null;
  /** Secrets replaced in the text shown, by kind; empty when none. The lineage keeps the raw text. */
  redacted: RedactionResult['found'];
}

/** Redacts texts and counts what it replaced, by kind. */
class Redactor {
  private readonly counts = new Map<string, number>();

  text(text: string): string {
    const result = redactSecrets(text);
    for (const { kind, count } of result.found) {
      this.counts.set(kind, (this.counts.get(kind) ?? 0) + count);
    }
    return result.text;
  }

  node = (node: TemporalNode): TemporalNode => ({ ...node, text: this.text(node.text) });

  found(): RedactionResult['found'] {
    return [...this.counts]
      .map(([kind, count]) => ({ kind, count }))
      .sort((a, b) => (a.kind < b.kind ? -1 : 1));
  }
}

function siblingsOf(
  store: LineageStore,
  agentId: string,
  node: TemporalNode,
  parents: TemporalNode[],
): TemporalNode[] {
  if (parents.length === 0) return store.neighbourRoots(agentId, node.id, EXPAND_NEIGHBOUR_ROOTS);
  const seen = new Map<string, TemporalNode>();
  for (const parent of parents) {
    for (const child of store.children(agentId, parent.id)) {
      if (child.id !== node.id) seen.set(child.id, child);
    }
  }
  return [...seen.values()].sort((a, b) => (a.startAt < b.startAt ? -1 : 1));
}

/** How much of the transcript an expansion shows. */
export interface ExpandOptions {
  /** Entries at most (default EXPAND_MAX_ENTRIES). */
  maxEntries?: number;
  /** Characters of each entry at most (default EXPAND_MAX_ENTRY_CHARS). */
  maxEntryChars?: number;
}

/** Redacted, then clipped: a clip never leaves half a secret behind. */
function clip(entry: TranscriptEntry, redactor: Redactor, maxChars: number): ExcerptEntry {
  const text = redactor.text(entry.text);
  return text.length > maxChars
    ? { ...entry, text: `${text.slice(0, maxChars - 1)}…`, clipped: true }
    : { ...entry, text, clipped: false };
}

function transcriptExcerpt(
  store: LineageStore,
  agentId: string,
  node: TemporalNode,
  redactor: Redactor,
  options: ExpandOptions,
): TranscriptExcerpt | null {
  if (!node.sessionKey) return null;
  const limit = options.maxEntries ?? EXPAND_MAX_ENTRIES;
  const maxChars = options.maxEntryChars ?? EXPAND_MAX_ENTRY_CHARS;
  const inRange = store.getTranscript(agentId, node.sessionKey, {
    fromAt: node.startAt,
    toAt: node.endAt,
    limit,
  });
  if (!inRange) return null;
  const transcript =
    inRange.entries.length > 0
      ? inRange
      : (store.getTranscript(agentId, node.sessionKey, { limit }) ?? inRange);
  return {
    sessionKey: transcript.sessionKey,
    harness: transcript.harness,
    startedAt: transcript.startedAt,
    totalEntries: transcript.totalEntries,
    entries: transcript.entries.map((entry) => clip(entry, redactor, maxChars)),
    truncated: transcript.entries.length < transcript.totalEntries,
  };
}

/**
 * The drill-down of seed 002 §1: a node with its lineage, its neighbourhood,
 * its linked units and a bounded excerpt of its transcript, as an agent
 * gets it (`memory_expand`, `cairn expand`): every text redacted
 * (redactSecrets) before it is clipped, `redacted` counting what was
 * replaced; the lineage on disk keeps the raw text. Everything is read for
 * `agentId` only; another agent's node is NOT_FOUND. `nodeId` may be a
 * unique start of the id (`node:1a2b3c4d`).
 */
export function expandNode(
  store: LineageStore,
  nodeId: string,
  agentId: string,
  options: ExpandOptions = {},
): NodeExpansion {
  const node = store.getNode(agentId, store.resolveNodeId(agentId, nodeId));
  const parents = store.parents(agentId, node.id);
  const redactor = new Redactor();
  const transcript = transcriptExcerpt(store, agentId, node, redactor, options);
  return {
    node: redactor.node(node),
    parents: parents.map(redactor.node),
    children: store.children(agentId, node.id).map(redactor.node),
    siblings: siblingsOf(store, agentId, node, parents).map(redactor.node),
    thread: { threadKey: node.threadKey, nodeCount: store.countNodes(agentId, node.threadKey) },
    linkedUnits: store.linkedUnits(agentId, node.id),
    transcript,
    redacted: redactor.found(),
  };
}

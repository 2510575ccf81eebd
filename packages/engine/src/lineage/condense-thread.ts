import { parseInput } from '@cairn/core';
import { extractiveSummary, type SummaryText } from './extractive-summary';
import { condenseOptionsSchema } from './lineage-inputs';
import type { LineageStore } from './lineage-store';
import { CONDENSABLE_KINDS, type TemporalNode } from './lineage-types';

/** Turns the consumed nodes' texts (oldest first) into the condensed text. */
export type Summarize = (
  texts: string[],
  nodes: TemporalNode[],
) => Promise<SummaryText> | SummaryText;

export interface CondenseThreadOptions {
  agentId: string;
  threadKey: string;
  /** Condense once the thread has more roots than this. Default 8. */
  threshold?: number;
  /** How many roots one condensed node consumes. Default max(2, ceil(threshold / 2)). */
  batch?: number;
  /** Default: the offline extractive summary. */
  summarize?: Summarize;
}

export interface CondenseResult {
  node: TemporalNode;
  /** The roots it consumed, oldest first; each is now its child. */
  consumed: TemporalNode[];
  /** Condensable roots left in the thread right after this step. */
  rootsLeft: number;
}

/** Another process won the race this many times in a row: it is making progress, so stop. */
const MAX_ATTEMPTS = 5;

const byTime = (a: TemporalNode, b: TemporalNode) =>
  a.startAt < b.startAt ? -1 : a.startAt > b.startAt ? 1 : 0;

/**
 * Which roots to consume: the oldest `size` roots of the shallowest depth
 * that has that many, else of the most populated depth. Condensing like
 * depths keeps the DAG balanced (depth grows with the log of the history)
 * and each condensed node spans one stretch of time.
 */
export function pickBatch(roots: readonly TemporalNode[], size: number): TemporalNode[] {
  const levels = new Map<number, TemporalNode[]>();
  for (const root of roots) {
    const level = levels.get(root.depth) ?? [];
    level.push(root);
    levels.set(root.depth, level);
  }
  const ordered = [...levels.entries()].sort(([a], [b]) => a - b).map(([, nodes]) => nodes);
  const full = ordered.find((level) => level.length >= size);
  const widest = ordered.reduce((best, level) => (level.length > best.length ? level : best), []);
  const pool = full ?? (widest.length >= 2 ? widest : [...roots]);
  return [...pool].sort(byTime).slice(0, size);
}

export function defaultBatch(threshold: number): number {
  return Math.max(2, Math.ceil(threshold / 2));
}

/**
 * When the thread has more than `threshold` condensable roots (session
 * summaries, compactions and condensed nodes alike), writes one condensed
 * node over a batch of the oldest and returns it; otherwise null. The
 * summary is computed outside the lock, then committed only if every chosen
 * node is still a root; on a lost race the roots are read again.
 */
export async function condenseThread(
  store: LineageStore,
  options: CondenseThreadOptions,
): Promise<CondenseResult | null> {
  const { summarize = extractiveSummary, ...rest } = options;
  const input = parseInput(condenseOptionsSchema, rest, 'condense options');
  const size = input.batch ?? defaultBatch(input.threshold);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const roots = store.listNodes({
      agentId: input.agentId,
      threadKey: input.threadKey,
      kinds: [...CONDENSABLE_KINDS],
      roots: true,
    });
    if (roots.length <= input.threshold) return null;
    const batch = pickBatch(roots, size);
    const summary = await summarize(
      batch.map((node) => node.text),
      batch,
    );
    const node = store.condenseRoots({
      agentId: input.agentId,
      threadKey: input.threadKey,
      childIds: batch.map((child) => child.id),
      summary,
    });
    if (node) return { node, consumed: batch, rootsLeft: roots.length - batch.length + 1 };
  }
  return null;
}

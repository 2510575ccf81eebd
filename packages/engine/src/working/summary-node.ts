import type { LineageStore } from '../lineage';
import type { StructuredSummary } from '../summaries';
import type { HeadStore, SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';

/**
 * Writes a summary or compaction node of a session (Tier 3), links the
 * units injected during the session to it, and keeps its facts for the
 * thread head (Tier 2). Returns the node id.
 */
export function writeSummaryNode(
  { ctx, heads, store }: { ctx: LifecycleContext; heads: HeadStore; store: () => LineageStore },
  session: SessionRecord,
  kind: 'session_summary' | 'compaction',
  summary: StructuredSummary,
  startAt: string,
): string {
  const now = ctx.now().toISOString();
  if (!summary.status) {
    // Hooks rarely expose assistant turns, where the status usually comes
    // from: fall back to the latest distilled fact, never to raw prompt text.
    const latest =
      summary.decisions.at(-1) ?? summary.nextSteps.at(-1) ?? summary.commitments.at(-1);
    if (latest) summary.status = latest;
  }
  const node = store().addNode({
    agentId: session.agentId,
    kind,
    threadKey: session.threadKey,
    sessionKey: session.sessionKey,
    startAt,
    endAt: now,
    source: summary.source,
    text: summary.text || '(empty session)',
  });
  const injected = heads.sessions.injectedUnits(session);
  if (injected.length > 0) store().linkUnits(session.agentId, node.id, injected);
  heads.threads.addFacts({
    agentId: session.agentId,
    threadKey: session.threadKey,
    nodeId: node.id,
    facts: summary,
    at: now,
    session: kind === 'session_summary',
  });
  return node.id;
}

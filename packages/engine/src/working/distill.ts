import { condenseThread, type LineageStore, openLineageStore } from '../lineage';
import type { HeadStore, SessionRecord } from './head-store';
import { GLOBAL_HEAD, refreshGlobalHead, refreshThreadHead } from './head-writer';
import type { LifecycleContext } from './lifecycle';
import { createSessionSummaries } from './session-summaries';
import { createTranscriptRecall } from './transcript-recall';

const RECALL_LIMIT = 5;
const TRANSCRIPT_FALLBACK_LIMIT = 2;

/**
 * The work behind the lifecycle events: transcript capture (Tier 3),
 * recall in the documented order, summaries into temporal nodes, and the
 * refresh of the thread head (Tier 2) and MEMORY.md (Tier 1).
 */
export function createDistiller(ctx: LifecycleContext, heads: HeadStore) {
  let lineage: LineageStore | undefined;
  const store = () => (lineage ??= openLineageStore(ctx.rootDir, { now: ctx.now }));
  const summaries = createSessionSummaries(ctx, heads, store);
  const transcripts = createTranscriptRecall(ctx, store);

  function record(
    session: SessionRecord,
    role: 'user' | 'tool' | 'system' | 'assistant',
    text: string,
    toolName?: string,
  ): void {
    store().appendTranscriptEntry({
      agentId: session.agentId,
      sessionKey: session.sessionKey,
      role,
      text: text || '(empty)',
      threadKey: session.threadKey,
      ...(session.harness ? { harness: session.harness } : {}),
      ...(session.cwd ? { cwd: session.cwd } : {}),
      ...(toolName ? { toolName } : {}),
      at: ctx.now(),
    });
  }

  /** Units first; the transcript of other sessions of this thread only when units have nothing. */
  async function recall(session: SessionRecord, prompt: string): Promise<string[]> {
    if (!prompt.trim()) return [];
    const hits = await ctx.memory
      .search({ query: prompt, limit: RECALL_LIMIT, filters: { kind: ['UNIT'] } })
      .catch(() => []);
    const fresh = heads.claimInjections(
      session,
      hits.map((hit) => hit.memoryId!),
    );
    if (hits.length > 0) {
      return hits
        .filter((hit) => fresh.includes(hit.memoryId!))
        .map((hit) => `- ${hit.snippet} (\`${hit.memoryId}\`)`);
    }
    const transcript = await transcripts.find(session, prompt, TRANSCRIPT_FALLBACK_LIMIT);
    const ids = heads.claimInjections(
      session,
      transcript.map((hit) => `T:${hit.transcriptId}:${hit.seq}`),
    );
    return transcript
      .filter((hit) => ids.includes(`T:${hit.transcriptId}:${hit.seq}`))
      .map(
        (hit) => `- earlier in this thread (${hit.at.slice(0, 10)}, ${hit.role}): ${hit.snippet}`,
      );
  }

  /** Units for session start: relevant to the thread's state, or the latest approved ones. */
  async function relevantUnits(session: SessionRecord, query: string): Promise<string[]> {
    const hits = query.trim()
      ? await ctx.memory
          .search({ query, limit: RECALL_LIMIT, filters: { kind: ['UNIT'] } })
          .catch(() => [])
      : [];
    const items = hits.length
      ? hits.map((hit) => ({ id: hit.memoryId!, text: hit.snippet }))
      : (await ctx.memory.list({ review: 'approved' }))
          .slice(-RECALL_LIMIT)
          .map((u) => ({ id: u.memoryId, text: u.text }));
    const fresh = heads.claimInjections(
      session,
      items.map((item) => item.id),
    );
    return items
      .filter((item) => fresh.includes(item.id))
      .map((item) => `- ${item.text} (\`${item.id}\`)`);
  }

  /** Condenses the thread while it holds more roots than the threshold (one node per pass). */
  async function condense(session: SessionRecord): Promise<void> {
    const threshold = ctx.settings.lineage.condenseThreshold;
    for (let pass = 0; pass < 4; pass += 1) {
      const result = await condenseThread(store(), {
        agentId: session.agentId,
        threadKey: session.threadKey,
        threshold,
      });
      if (!result) return;
    }
  }

  async function refresh(session: SessionRecord): Promise<void> {
    await condense(session);
    await refreshThreadHead(ctx.rootDir, heads, {
      agentId: session.agentId,
      threadKey: session.threadKey,
      now: ctx.now,
    });
    const units = (await ctx.memory.list({ review: 'approved' }))
      .filter((u) => u.category === 'decision' || u.category === 'preference')
      .map((u) => ({ memoryId: u.memoryId, text: u.text, updatedAt: u.updatedAt ?? '' }));
    await refreshGlobalHead(ctx.rootDir, heads, {
      units,
      budgetTokens: ctx.settings.limits.headTokens,
      now: ctx.now,
    });
  }

  /** Deferred head writes are retried on the next event. */
  async function settlePending(): Promise<void> {
    const pending = heads.pending();
    if (pending.length === 0) return;
    const units = (await ctx.memory.list({ review: 'approved' }))
      .filter((u) => u.category === 'decision' || u.category === 'preference')
      .map((u) => ({ memoryId: u.memoryId, text: u.text, updatedAt: u.updatedAt ?? '' }));
    for (const write of pending) {
      if (write.scope === GLOBAL_HEAD.scope) {
        await refreshGlobalHead(
          ctx.rootDir,
          heads,
          { units, budgetTokens: ctx.settings.limits.headTokens, now: ctx.now },
          { attempts: 3 },
        );
      } else if (write.scope.startsWith('thread:')) {
        await refreshThreadHead(
          ctx.rootDir,
          heads,
          { agentId: write.agentId, threadKey: write.scope.slice(7), now: ctx.now },
          { attempts: 3 },
        );
      }
    }
  }

  return {
    record,
    recall,
    relevantUnits,
    summarize: summaries.summarize,
    retryDueSummaries: summaries.retryDue,
    refresh,
    settlePending,
    close: () => {
      transcripts.close();
      lineage?.close();
    },
  };
}

export type Distiller = ReturnType<typeof createDistiller>;

import type { LineageStore } from '../lineage';
import { TRANSCRIPTS_POOL_ID } from '../recall/engine-pool';
import type { HeadStore, SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { createTranscriptRecall } from './transcript-recall';

const RECALL_LIMIT = 5;
const TRANSCRIPT_FALLBACK_LIMIT = 2;

/**
 * What the lifecycle injects from memory, in the documented order (seed
 * 002 §4): units first; the transcript of this thread's other sessions only
 * when no unit answers. Each item is injected once per session epoch.
 */
export function createRecall(ctx: LifecycleContext, heads: HeadStore, store: () => LineageStore) {
  const transcripts = createTranscriptRecall(ctx, store);

  // Units are the hot tier's: the prompt path recalls no warm pool (no lineage, no notes).
  const searchUnits = (session: SessionRecord, query: string) =>
    ctx.memory
      .search({
        query,
        limit: RECALL_LIMIT,
        filters: { kind: ['UNIT'] },
        tiers: ['hot'],
        agentId: session.agentId,
      })
      .catch(() => []);
  /** Other sessions of this thread (the cold transcripts pool), through the lifecycle's lineage. */
  const searchTranscripts = (session: SessionRecord, prompt: string) =>
    ctx.memory.recall(
      {
        agentId: session.agentId,
        query: prompt,
        limit: TRANSCRIPT_FALLBACK_LIMIT,
        tiers: ['cold'],
        poolIds: [TRANSCRIPTS_POOL_ID],
        filters: { threadKey: session.threadKey, excludeSessionKey: session.sessionKey },
      },
      { lineage: store, transcripts: transcripts.lookup },
    );

  /** Lines for a prompt. */
  async function forPrompt(session: SessionRecord, prompt: string): Promise<string[]> {
    if (!prompt.trim()) return [];
    const hits = await searchUnits(session, prompt);
    if (hits.length > 0) {
      const fresh = heads.sessions.claimInjections(
        session,
        hits.map((hit) => hit.memoryId!),
      );
      return hits
        .filter((hit) => fresh.includes(hit.memoryId!))
        .map((hit) => `- ${hit.snippet} (\`${hit.memoryId}\`)`);
    }
    const transcript = await searchTranscripts(session, prompt);
    // Result ids are `T:<transcript>:<seq>`, the injection key.
    const fresh = heads.sessions.claimInjections(
      session,
      transcript.map((hit) => hit.id),
    );
    return transcript
      .filter((hit) => fresh.includes(hit.id))
      .map(
        ({ metadata: m, snippet }) =>
          `- earlier in this thread (${String(m?.at).slice(0, 10)}, ${m?.role}): ${snippet}`,
      );
  }

  /** Lines for session start: units relevant to the thread's state, or the latest approved ones. */
  async function forSessionStart(session: SessionRecord, query: string): Promise<string[]> {
    const hits = query.trim() ? await searchUnits(session, query) : [];
    const items = hits.length
      ? hits.map((hit) => ({ id: hit.memoryId!, text: hit.snippet }))
      : (await ctx.memory.list({ review: 'approved' }))
          .slice(-RECALL_LIMIT)
          .map((u) => ({ id: u.memoryId, text: u.text }));
    const fresh = heads.sessions.claimInjections(
      session,
      items.map((item) => item.id),
    );
    return items
      .filter((item) => fresh.includes(item.id))
      .map((item) => `- ${item.text} (\`${item.id}\`)`);
  }

  return { forPrompt, forSessionStart, close: () => transcripts.close() };
}

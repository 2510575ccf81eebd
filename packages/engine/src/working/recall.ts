import type { LineageStore } from '../lineage';
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

  const searchUnits = (query: string) =>
    ctx.memory.search({ query, limit: RECALL_LIMIT, filters: { kind: ['UNIT'] } }).catch(() => []);

  /** Lines for a prompt. */
  async function forPrompt(session: SessionRecord, prompt: string): Promise<string[]> {
    if (!prompt.trim()) return [];
    const hits = await searchUnits(prompt);
    if (hits.length > 0) {
      const fresh = heads.sessions.claimInjections(
        session,
        hits.map((hit) => hit.memoryId!),
      );
      return hits
        .filter((hit) => fresh.includes(hit.memoryId!))
        .map((hit) => `- ${hit.snippet} (\`${hit.memoryId}\`)`);
    }
    const transcript = await transcripts.find(session, prompt, TRANSCRIPT_FALLBACK_LIMIT);
    const key = (hit: (typeof transcript)[number]) => `T:${hit.transcriptId}:${hit.seq}`;
    const fresh = heads.sessions.claimInjections(session, transcript.map(key));
    return transcript
      .filter((hit) => fresh.includes(key(hit)))
      .map(
        (hit) => `- earlier in this thread (${hit.at.slice(0, 10)}, ${hit.role}): ${hit.snippet}`,
      );
  }

  /** Lines for session start: units relevant to the thread's state, or the latest approved ones. */
  async function forSessionStart(session: SessionRecord, query: string): Promise<string[]> {
    const hits = query.trim() ? await searchUnits(query) : [];
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

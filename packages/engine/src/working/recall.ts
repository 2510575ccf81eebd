import { isUnsafePathError, type MemoryResult, type MemorySearchResult } from '@cairn/core';
import type { LineageStore } from '../lineage';
import type { PackInput } from '../packs/compose-pack';
import { TRANSCRIPTS_POOL_ID } from '../recall/engine-pool';
import type { SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { createTranscriptRecall } from './transcript-recall';

const RECALL_LIMIT = 5;
const TRANSCRIPT_FALLBACK_LIMIT = 2;

const unitCandidate = (
  unit: { id: string; text: string; score: number; why: string },
  hit?: MemorySearchResult,
): PackInput => ({
  id: unit.id,
  plane: 'long-term',
  text: unit.text,
  source: hit ? `.cairn/memory/${hit.path}` : '.cairn/memory',
  trustClass: 'approved',
  provenance: {
    kind: 'unit',
    id: unit.id,
    ...(hit ? { file: hit.path, line: hit.startLine } : {}),
  },
  ...(hit?.createdAt ? { recency: hit.createdAt } : {}),
  score: unit.score,
  why: unit.why,
  dedupeKey: unit.text.trim().toLowerCase(),
});

/** Raw transcript text: only ever injected as a quoted, marked excerpt (the pack's trust policy). */
const transcriptCandidate = (hit: MemoryResult, rank: number): PackInput => {
  const m = hit.metadata ?? {};
  const at = String(m.at ?? '');
  return {
    // `T:<transcript>:<seq>`, the injection key.
    id: hit.id,
    plane: 'long-term',
    text: hit.snippet ?? '',
    source: `transcript of session ${String(m.sessionKey)} (${String(m.role)})`,
    trustClass: 'raw',
    provenance: { kind: 'lineage', id: `transcript ${String(m.transcriptId)}#${String(m.seq)}` },
    ...(at ? { recency: at } : {}),
    score: -rank,
    why: `earlier in this thread (${at.slice(0, 10)}, ${String(m.role)}); no unit answers the prompt`,
  };
};

/**
 * What the lifecycle recalls for the long-term plane of its packs, in the
 * documented order (seed 002 §4): units first; the transcript of this
 * thread's other sessions only when no unit answers. Once per session
 * epoch is the pack injection's business (it claims what it shows).
 */
export function createRecall(ctx: LifecycleContext, store: () => LineageStore) {
  const transcripts = createTranscriptRecall(ctx, store);

  // Units are the hot tier's: the prompt path recalls no warm pool (no lineage, no notes).
  const searchUnits = (session: SessionRecord, query: string) =>
    ctx.memory
      .search({
        query,
        limit: RECALL_LIMIT,
        filters: { kind: ['UNIT'], review: ['approved'] },
        tiers: ['hot'],
        agentId: session.agentId,
      })
      .catch((error: unknown) => {
        // A link under .cairn/ fails the event (nothing is injected), not just this search.
        if (isUnsafePathError(error)) throw error;
        return [];
      });
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

  /** Candidates for a prompt: matching units, else quoted transcript excerpts. */
  async function forPrompt(session: SessionRecord, prompt: string): Promise<PackInput[]> {
    if (!prompt.trim()) return [];
    const hits = (await searchUnits(session, prompt)).filter((hit) => hit.memoryId);
    if (hits.length > 0) {
      return hits.map((hit) =>
        unitCandidate(
          { id: hit.memoryId!, text: hit.snippet, score: hit.score, why: 'matches the prompt' },
          hit,
        ),
      );
    }
    const transcript = await searchTranscripts(session, prompt);
    return transcript.map(transcriptCandidate);
  }

  /** Candidates for session start: units relevant to the thread's state, or the latest approved ones. */
  async function forSessionStart(session: SessionRecord, query: string): Promise<PackInput[]> {
    const hits = query.trim()
      ? (await searchUnits(session, query)).filter((hit) => hit.memoryId)
      : [];
    if (hits.length) {
      return hits.map((hit) =>
        unitCandidate(
          {
            id: hit.memoryId!,
            text: hit.snippet,
            score: hit.score,
            why: "matches the thread's state",
          },
          hit,
        ),
      );
    }
    const latest = (await ctx.memory.list({ review: 'approved' })).slice(-RECALL_LIMIT);
    return latest.map((unit, index) =>
      unitCandidate({
        id: unit.memoryId,
        text: unit.text,
        score: index,
        why: 'among the latest approved units (nothing matched the thread)',
      }),
    );
  }

  return { forPrompt, forSessionStart, close: () => transcripts.close() };
}

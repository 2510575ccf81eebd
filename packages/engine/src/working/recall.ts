import type { MemorySearchResult } from '@cairn/core';
import type { LineageStore, TranscriptHit } from '../lineage';
import type { PackInput } from '../packs/compose-pack';
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
const transcriptCandidate = (hit: TranscriptHit, rank: number): PackInput => ({
  id: `T:${hit.transcriptId}:${hit.seq}`,
  plane: 'long-term',
  text: hit.snippet,
  source: `transcript of session ${hit.sessionKey} (${hit.role})`,
  trustClass: 'raw',
  provenance: { kind: 'lineage', id: `transcript ${hit.transcriptId}#${hit.seq}` },
  recency: hit.at,
  score: -rank,
  why: `earlier in this thread (${hit.at.slice(0, 10)}, ${hit.role}); no unit answers the prompt`,
});

/**
 * What the lifecycle recalls for the long-term plane of its packs, in the
 * documented order (seed 002 §4): units first; the transcript of this
 * thread's other sessions only when no unit answers. Once per session
 * epoch is the pack injection's business (it claims what it shows).
 */
export function createRecall(ctx: LifecycleContext, store: () => LineageStore) {
  const transcripts = createTranscriptRecall(ctx, store);

  const searchUnits = (query: string) =>
    ctx.memory.search({ query, limit: RECALL_LIMIT, filters: { kind: ['UNIT'] } }).catch(() => []);

  /** Candidates for a prompt: matching units, else quoted transcript excerpts. */
  async function forPrompt(session: SessionRecord, prompt: string): Promise<PackInput[]> {
    if (!prompt.trim()) return [];
    const hits = (await searchUnits(prompt)).filter((hit) => hit.memoryId);
    if (hits.length > 0) {
      return hits.map((hit) =>
        unitCandidate(
          { id: hit.memoryId!, text: hit.snippet, score: hit.score, why: 'matches the prompt' },
          hit,
        ),
      );
    }
    const transcript = await transcripts.find(session, prompt, TRANSCRIPT_FALLBACK_LIMIT);
    return transcript.map(transcriptCandidate);
  }

  /** Candidates for session start: units relevant to the thread's state, or the latest approved ones. */
  async function forSessionStart(query: string): Promise<PackInput[]> {
    const hits = query.trim() ? (await searchUnits(query)).filter((hit) => hit.memoryId) : [];
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

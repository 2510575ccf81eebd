import type { Embedder, MemoryResult } from '@cairn/core';
import { type LineageStore, rankTranscriptsByMeaning, type TranscriptHit } from '../lineage';
import { meaningfulTerms, type PackInput, sharedTerms } from '../packs';
import { TRANSCRIPTS_POOL_ID, type TranscriptLookup } from '../recall';
import type { SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { logLifecycleFailure } from './lifecycle-log';

/** The lineage to search, and the embedder, resolved on first use (null: none configured). */
interface TranscriptRecallState {
  ctx: LifecycleContext;
  store: () => LineageStore;
  embedder?: Embedder | null;
}

/**
 * The transcript fallback of recall (seed 002 §4): other sessions of this
 * agent's thread. Full-text search always; with an embedder configured the
 * entries are also ranked by meaning (their vectors kept by the embedding
 * cache), so a paraphrase finds the entry. An embedder failure costs the
 * meaning ranking, not the recall: it is logged and full text answers.
 */
export function createTranscriptRecall(ctx: LifecycleContext, store: () => LineageStore) {
  const state: TranscriptRecallState = { ctx, store };
  return {
    lookup: (request: TranscriptLookup) => lookupTranscripts(state, request),
    /** Up to `limit` entries of this thread's other sessions, best first. */
    find: (session: SessionRecord, prompt: string, limit: number): Promise<TranscriptHit[]> =>
      lookupTranscripts(state, {
        agentId: session.agentId,
        query: prompt,
        limit,
        threadKey: session.threadKey,
        excludeSessionKey: session.sessionKey,
      }),
    close(): void {
      (state.embedder as { close?: () => void } | null | undefined)?.close?.();
    },
  };
}

function currentEmbedder(state: TranscriptRecallState): Embedder | undefined {
  if (state.embedder === undefined) {
    try {
      state.embedder = state.ctx.embedder?.() ?? null;
    } catch {
      state.embedder = null;
    }
  }
  return state.embedder ?? undefined;
}

/** Entries of the agent (and thread) for the query, best first, the excluded session left out. */
async function lookupTranscripts(
  state: TranscriptRecallState,
  request: TranscriptLookup,
): Promise<TranscriptHit[]> {
  const { agentId, query, limit, threadKey, excludeSessionKey } = request;
  const options = {
    limit: limit + 3,
    ...(threadKey ? { threadKey } : {}),
    ...(excludeSessionKey ? { excludeSessionKey } : {}),
  };
  const other = (hit: { sessionKey: string }) => hit.sessionKey !== excludeSessionKey;
  const semantic = currentEmbedder(state);
  if (semantic) {
    try {
      const candidates = state.store().transcriptCandidates(agentId, query, options);
      const ranked = await rankTranscriptsByMeaning(candidates, query, semantic, candidates.length);
      return ranked.filter(other).slice(0, limit);
    } catch (error) {
      logLifecycleFailure(state.ctx.rootDir, {
        at: state.ctx.now().toISOString(),
        event: 'transcript-recall',
        agentId,
        ...(excludeSessionKey ? { sessionKey: excludeSessionKey } : {}),
        code: (error as { code?: string }).code ?? 'EMBEDDER_FAILED',
        message: `ranking transcripts by meaning failed, full-text only: ${(error as Error).message}`,
      });
    }
  }
  // The same choice the caller makes, made before the entries are read for their snippets.
  return state
    .store()
    .searchTranscripts(agentId, query, options, (hits) => hits.filter(other).slice(0, limit));
}

const TRANSCRIPT_FALLBACK_LIMIT = 2;

/**
 * What relevance reads of an excerpt: the words of its window that hold a
 * word of the prompt. The full-text search found the entry by those words,
 * and Cairn cut the window around them; the window's other words (a tool
 * output's paths, split into parts) are the entry's own, and would make the
 * excerpt a "long text" that needs one more word of the prompt to count.
 */
function matchedWords(snippet: string, prompt: ReadonlySet<string>): string | undefined {
  const words = snippet
    .split(/\s+/)
    .filter((word) => word && sharedTerms(prompt, meaningfulTerms(word)) > 0);
  return words.length > 0 ? words.join(' ') : undefined;
}

/** Raw transcript text: only ever injected as a quoted, marked excerpt (the pack's trust policy). */
const transcriptCandidate = (
  hit: MemoryResult,
  rank: number,
  prompt: ReadonlySet<string>,
): PackInput => {
  const m = hit.metadata ?? {};
  const at = String(m.at ?? '');
  const snippet = hit.snippet ?? '';
  const matched = matchedWords(snippet, prompt);
  return {
    // `T:<transcript>:<seq>`, the injection key.
    id: hit.id,
    plane: 'long-term',
    text: snippet,
    ...(matched === undefined ? {} : { matchText: matched }),
    source: `transcript of session ${String(m.sessionKey)} (${String(m.role)})`,
    trustClass: 'raw',
    provenance: { kind: 'lineage', id: `transcript ${String(m.transcriptId)}#${String(m.seq)}` },
    ...(at ? { recency: at } : {}),
    score: -rank,
    why: `earlier in this thread (${at.slice(0, 10)}, ${String(m.role)}); no unit answers the prompt`,
  };
};

/**
 * What the lifecycle recalls besides units, in the documented order (seed
 * 002 §4): the transcript of this thread's other sessions, for a prompt no
 * unit answers (the pack's long-term plane asks). Once per session epoch
 * is the pack injection's business (it claims what it shows).
 */
export function createRecall(ctx: LifecycleContext, store: () => LineageStore) {
  const transcripts = createTranscriptRecall(ctx, store);

  /** Other sessions of this thread (the cold transcripts pool), through the lifecycle's lineage. */
  async function transcriptExcerpts(session: SessionRecord, prompt: string): Promise<PackInput[]> {
    if (!prompt.trim()) return [];
    const hits = await ctx.memory.recall(
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
    const terms = meaningfulTerms(prompt);
    return hits.map((hit, rank) => transcriptCandidate(hit, rank, terms));
  }

  return { transcriptExcerpts, close: () => transcripts.close() };
}

import type { Embedder } from '@cairn/core';
import { type LineageStore, rankTranscriptsByMeaning, type TranscriptHit } from '../lineage';
import type { TranscriptLookup } from '../recall';
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

import type { Embedder } from '@cairn/core';
import { type LineageStore, rankTranscriptsByMeaning, type TranscriptHit } from '../lineage';
import type { SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { logLifecycleFailure } from './lifecycle-log';

/**
 * The transcript fallback of recall (seed 002 §4): other sessions of this
 * agent's thread. Full-text search always; with an embedder configured the
 * entries are also ranked by meaning (their vectors kept by the embedding
 * cache), so a paraphrase finds the entry. An embedder failure costs the
 * meaning ranking, not the recall: it is logged and full text answers.
 */
export function createTranscriptRecall(ctx: LifecycleContext, store: () => LineageStore) {
  let embedder: Embedder | null | undefined;
  const currentEmbedder = (): Embedder | undefined => {
    if (embedder === undefined) {
      try {
        embedder = ctx.embedder?.() ?? null;
      } catch {
        embedder = null;
      }
    }
    return embedder ?? undefined;
  };

  async function ranked(session: SessionRecord, prompt: string, limit: number) {
    const options = { limit: limit + 3, threadKey: session.threadKey };
    const semantic = currentEmbedder();
    if (semantic) {
      try {
        const candidates = store().transcriptCandidates(session.agentId, prompt, options);
        return await rankTranscriptsByMeaning(candidates, prompt, semantic, candidates.length);
      } catch (error) {
        logLifecycleFailure(ctx.rootDir, {
          at: ctx.now().toISOString(),
          event: 'transcript-recall',
          agentId: session.agentId,
          sessionKey: session.sessionKey,
          code: (error as { code?: string }).code ?? 'EMBEDDER_FAILED',
          message: `ranking transcripts by meaning failed, full-text only: ${(error as Error).message}`,
        });
      }
    }
    // The same choice `find` makes, made before the entries are read for their snippets.
    return store().searchTranscripts(session.agentId, prompt, options, (hits) =>
      hits.filter((hit) => hit.sessionKey !== session.sessionKey).slice(0, limit),
    );
  }

  return {
    /** Up to `limit` entries of this thread's other sessions, best first. */
    async find(session: SessionRecord, prompt: string, limit: number): Promise<TranscriptHit[]> {
      const hits = await ranked(session, prompt, limit);
      return hits.filter((hit) => hit.sessionKey !== session.sessionKey).slice(0, limit);
    },
    close(): void {
      (embedder as { close?: () => void } | null | undefined)?.close?.();
    },
  };
}

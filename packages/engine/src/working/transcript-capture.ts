import { FINAL_ANSWER_CHARS } from '@cairn/core';
import { NO_FINAL_ANSWER } from '../history';
import type { AppendedEntry, LineageStore } from '../lineage';
import type { SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';

export type TranscriptRole = 'user' | 'tool' | 'system' | 'assistant';

/** Tier 3 capture: every event's text, whole, in the session's transcript. */
export function createTranscriptCapture(ctx: LifecycleContext, store: () => LineageStore) {
  return (
    session: SessionRecord,
    role: TranscriptRole,
    text: string,
    toolName?: string,
  ): AppendedEntry =>
    store().appendTranscriptEntry({
      agentId: session.agentId,
      sessionKey: session.sessionKey,
      role,
      text: text || '(empty)',
      threadKey: session.threadKey,
      ...(session.harness ? { harness: session.harness } : {}),
      ...(session.cwd ? { cwd: session.cwd } : {}),
      ...(toolName ? { toolName } : {}),
      at: ctx.now().toISOString(),
    });
}

/**
 * At session end, the agent's final answer as the harness handed it over
 * (docs/HISTORY.md#run-digests): an `assistant` entry, or the
 * NO_FINAL_ANSWER note when the harness found none. A harness that ends a
 * session more than once (OpenCode, OpenClaw) hands the same answer again:
 * it is written once.
 */
export function captureFinalAnswer(
  store: LineageStore,
  capture: ReturnType<typeof createTranscriptCapture>,
  session: SessionRecord,
  finalAnswer: string | null | undefined,
): void {
  if (finalAnswer === undefined) return;
  const text = finalAnswer?.trim().slice(0, FINAL_ANSWER_CHARS) ?? '';
  const [role, entry] = text
    ? (['assistant', text] as const)
    : (['system', NO_FINAL_ANSWER] as const);
  const { agentId, sessionKey } = session;
  const total = store.getTranscript(agentId, sessionKey, { limit: 1 })?.totalEntries ?? 0;
  if (total > 0) {
    const last = store.getTranscript(agentId, sessionKey, { fromSeq: total, limit: 1 })?.entries[0];
    if (last?.role === role && last.text === entry) return;
  }
  capture(session, role, entry);
}

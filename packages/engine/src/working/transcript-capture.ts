import type { LineageStore } from '../lineage';
import type { AppendedEntry } from '../lineage/lineage-types';
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
      at: ctx.now(),
    });
}

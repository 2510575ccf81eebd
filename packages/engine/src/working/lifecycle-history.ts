import { basename } from 'node:path';
import { hasOpenFailureFlag } from '../history/open-failure-flag';
import { detectToolFailure, toolEventFromRecorded } from '../history/tool-failure';
import type { AppendedEntry } from '../lineage/lineage-types';
import type { SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { slugify } from './thread-key';
import type { HistoryRecorder } from './tool-history-recorder';

/** Until namespaces exist (seed 004 §1), every pattern of a project lives in this one. */
export const DEFAULT_HISTORY_NAMESPACE = 'default';

/**
 * The tool-event branch of task history (issue 15). A successful event in a
 * session with no open failure costs the failure check and one stat of the
 * session's flag (history/open-failure-flag.ts): history.db stays closed
 * and the recorder (tool-history-recorder.ts) is not even loaded. Otherwise
 * the event goes to history.db, and a failure with a known signature is
 * answered with its best fix pattern, for the harness to inject.
 */
export function createToolHistory(ctx: LifecycleContext) {
  let recorder: HistoryRecorder | undefined;
  const load = async (): Promise<HistoryRecorder> => {
    if (recorder) return recorder;
    const { createHistoryRecorder } = await import('./tool-history-recorder');
    recorder ??= createHistoryRecorder(ctx.rootDir, ctx.settings.limits.injectTokens);
    return recorder;
  };
  const repo = slugify(basename(ctx.rootDir), 80);
  return {
    /** Records the event; resolves to the injection (empty unless a known fix applies). */
    async record(
      session: SessionRecord,
      entry: AppendedEntry,
      event: { toolName: string; input?: unknown; output?: unknown },
    ): Promise<string> {
      const tool = toolEventFromRecorded(event.toolName, event.input, event.output);
      const { agentId, sessionKey } = session;
      if (!detectToolFailure(tool).failed && !hasOpenFailureFlag(ctx.rootDir, agentId, sessionKey))
        return '';
      return (await load()).record({
        agentId,
        sessionKey,
        threadKey: session.threadKey,
        repo,
        namespace: DEFAULT_HISTORY_NAMESPACE,
        eventId: `T:${entry.transcriptId}:${entry.seq}`,
        toolName: event.toolName,
        input: event.input,
        output: event.output,
        at: ctx.now().toISOString(),
      });
    },
    /** A session that ends leaves its unresolved failures abandoned. */
    async endSession(session: SessionRecord): Promise<void> {
      if (!hasOpenFailureFlag(ctx.rootDir, session.agentId, session.sessionKey)) return;
      (await load()).endSession(session, ctx.now().toISOString());
    },
    close(): void {
      recorder?.close();
    },
  };
}

import { CairnError } from '@cairn/core';
import type { FixPatternDetail } from '../history/fix-pattern-types';
import { historyScope } from '../history/history-scope';
import { hasOpenFailureFlag } from '../history/open-failure-flag';
import { promoteVerifiedPattern } from '../history/promote';
import { detectToolFailure, toolEventFromRecorded } from '../history/tool-failure';
import type { AppendedEntry } from '../lineage/lineage-types';
import type { SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { logLifecycleFailure } from './lifecycle-log';
import type { HistoryRecorder } from './tool-history-recorder';

export { DEFAULT_HISTORY_NAMESPACE } from '../history/history-scope';

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
    recorder ??= createHistoryRecorder(ctx.rootDir, ctx.settings.memory.contextBudgetTokens);
    return recorder;
  };
  // Failures and patterns are recorded in the configured namespace (`memory.namespace`).
  const scope = historyScope(ctx.rootDir, ctx.settings.memory.namespace);
  /**
   * A pattern this event turned verified becomes a draft `decision` unit
   * (docs/HISTORY.md#promotion-and-review). Only such an event touches the
   * memory store; its trouble is logged and costs the event's injection nothing.
   */
  const promote = async (session: SessionRecord, verified: FixPatternDetail[]) => {
    for (const pattern of verified) {
      try {
        await promoteVerifiedPattern(ctx.memory, pattern);
      } catch (error) {
        logLifecycleFailure(ctx.rootDir, {
          at: ctx.now().toISOString(),
          event: 'tool-use',
          agentId: session.agentId,
          sessionKey: session.sessionKey,
          code: CairnError.isInstance(error) ? error.code : 'INTERNAL',
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
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
      const { inject, verified } = (await load()).record({
        agentId,
        sessionKey,
        threadKey: session.threadKey,
        repo: scope.repo,
        namespace: scope.namespace,
        eventId: `T:${entry.transcriptId}:${entry.seq}`,
        toolName: event.toolName,
        input: event.input,
        output: event.output,
        at: ctx.now().toISOString(),
      });
      if (verified.length > 0) await promote(session, verified);
      return inject;
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

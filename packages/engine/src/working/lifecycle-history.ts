import { existsSync } from 'node:fs';
import { CairnError } from '@cairn/core';
import type { FixPatternDetail } from '../history/fix-pattern-types';
import { historyDatabasePath } from '../history/history-database';
import { historyScope } from '../history/history-scope';
import { hasOpenFailureFlag } from '../history/open-failure-flag';
import { promoteVerifiedPattern } from '../history/promote';
import { detectToolFailure, toolEventFromRecorded } from '../history/tool-failure';
import type { AppendedEntry } from '../lineage/lineage-types';
import type { SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { logLifecycleFailure } from './lifecycle-log';
import type { HistoryRecorder, KnownFix } from './tool-history-recorder';

export { DEFAULT_HISTORY_NAMESPACE } from '../history/history-scope';

/**
 * The tool-event branch of task history. A successful event in a
 * session with no open failure costs the failure check and one stat of the
 * session's flag (history/open-failure-flag.ts): history.db stays closed
 * and the recorder (tool-history-recorder.ts) is not even loaded. Otherwise
 * the event goes to history.db, and a failure with a known signature is
 * answered with its best fix pattern, which the event injects as a pack
 * (the post-tool profile).
 */
export function createToolHistory(ctx: LifecycleContext, authorId: () => string) {
  let recorder: HistoryRecorder | undefined;
  const load = async (): Promise<HistoryRecorder> => {
    if (recorder) return recorder;
    const { createHistoryRecorder } = await import('./tool-history-recorder');
    recorder ??= createHistoryRecorder(ctx.rootDir);
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
        await promoteVerifiedPattern(ctx.memory, ctx.rootDir, pattern);
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
  /** What shared files cannot be read is logged (doctor shows it); the event goes on. */
  const logTrouble = (
    session: SessionRecord,
    event: string,
    message: string,
    code = 'INVALID_INPUT',
  ) =>
    logLifecycleFailure(ctx.rootDir, {
      at: ctx.now().toISOString(),
      event,
      agentId: session.agentId,
      sessionKey: session.sessionKey,
      code,
      message,
    });
  /** Imports the other clones' `fixes/<author>.md` (docs/TEAMS.md); an unchanged file costs a read. */
  const importShared = async () => {
    const { readSharedFixes } = await import('../history/shared-fixes');
    const files = await readSharedFixes(ctx.rootDir, authorId());
    if (files.length === 0) return;
    // A file that does not parse imports nothing; `cairn doctor` names it and the fix.
    (await load()).importShared(files, scope.repo, ctx.now().toISOString());
  };
  /** Imports the others' files, then writes this clone's own when what it shares changed. */
  const shareFixes = async (session: SessionRecord) => {
    try {
      await importShared();
      const { writeSharedFixes } = await import('../history/shared-fixes-export');
      await writeSharedFixes(ctx.memory.writer, authorId(), (await load()).ownShared());
    } catch (error) {
      logTrouble(
        session,
        'session-end',
        `sharing fix patterns: ${error instanceof Error ? error.message : String(error)}`,
        CairnError.isInstance(error) ? error.code : 'INTERNAL',
      );
    }
  };
  return {
    /** Records the event; resolves to the fix to show (a failure whose signature has a pattern). */
    async record(
      session: SessionRecord,
      entry: AppendedEntry,
      event: { toolName: string; input?: unknown; output?: unknown },
    ): Promise<KnownFix | undefined> {
      const tool = toolEventFromRecorded(event.toolName, event.input, event.output);
      const { agentId, sessionKey } = session;
      const failed = detectToolFailure(tool).failed;
      if (!failed && !hasOpenFailureFlag(ctx.rootDir, agentId, sessionKey)) return undefined;
      // A failure may be one another clone shares a fix for: its file is read first.
      if (failed) await importShared();
      const { fix, verified } = (await load()).record({
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
      if (verified.length > 0) {
        await promote(session, verified);
        await shareFixes(session);
      }
      return fix;
    },
    /** A session that ends leaves its unresolved failures abandoned, and shares its clone's fixes. */
    async endSession(session: SessionRecord): Promise<void> {
      if (hasOpenFailureFlag(ctx.rootDir, session.agentId, session.sessionKey))
        (await load()).endSession(session, ctx.now().toISOString());
      if (existsSync(historyDatabasePath(ctx.rootDir))) await shareFixes(session);
    },
    close(): void {
      recorder?.close();
    },
  };
}

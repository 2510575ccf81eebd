import { basename } from 'node:path';
import { renderFixPattern } from '../history/fix-pattern-render';
import { openHistoryDatabase } from '../history/history-database';
import {
  endSessionFailures,
  type HistoryAccess,
  recordToolOutcome,
} from '../history/tool-outcome-recorder';
import type { AppendedEntry } from '../lineage/lineage-types';
import { redactSecrets } from '../packs/redact-secrets';
import type { SessionRecord } from './head-store';
import { composeInjection } from './injection';
import type { LifecycleContext } from './lifecycle-context';
import type { Database } from './sqlite';
import { slugify } from './thread-key';

/** Until namespaces exist (seed 004 §1), every pattern of a project lives in this one. */
export const DEFAULT_HISTORY_NAMESPACE = 'default';

/** The title of the text that follows a failing tool event with a known fix. */
export const KNOWN_FIX_TITLE =
  '## Known fix for this error (Cairn task history: derived from earlier runs, check it before following)';

/**
 * The tool-event branch of task history (issue 15): each tool event's
 * failure or success goes to history.db (history/tool-outcome-recorder.ts),
 * which stays closed for a successful event in a session with no open
 * failure. A failure with a known signature is answered with its best
 * fix pattern, for the harness to inject after the tool.
 */
export function createToolHistory(ctx: LifecycleContext) {
  let db: Database | undefined;
  const access: HistoryAccess = {
    rootDir: ctx.rootDir,
    db: () => (db ??= openHistoryDatabase(ctx.rootDir)),
    redact: (text) => redactSecrets(text).text,
  };
  const repo = slugify(basename(ctx.rootDir), 80);
  return {
    /** Records the event; returns the injection (empty unless a known fix applies). */
    record(
      session: SessionRecord,
      entry: AppendedEntry,
      event: { toolName: string; input?: unknown; output?: unknown },
    ): string {
      const outcome = recordToolOutcome(access, {
        agentId: session.agentId,
        sessionKey: session.sessionKey,
        threadKey: session.threadKey,
        repo,
        namespace: DEFAULT_HISTORY_NAMESPACE,
        eventId: `T:${entry.transcriptId}:${entry.seq}`,
        toolName: event.toolName,
        input: event.input,
        output: event.output,
        at: ctx.now().toISOString(),
      });
      if (!outcome.pattern) return '';
      return composeInjection(
        [{ title: KNOWN_FIX_TITLE, lines: renderFixPattern(outcome.pattern) }],
        ctx.settings.limits.injectTokens,
      );
    },
    /** A session that ends leaves its unresolved failures abandoned. */
    endSession(session: SessionRecord): void {
      endSessionFailures(access, session, ctx.now().toISOString());
    },
    close(): void {
      db?.close();
    },
  };
}

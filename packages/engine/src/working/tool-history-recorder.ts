import { redactSecrets } from '@cairn/core';
import { renderFixPattern } from '../history/fix-pattern-render';
import { openHistoryDatabase } from '../history/history-database';
import {
  endSessionFailures,
  type HistoryAccess,
  recordToolOutcome,
  type ToolOutcomeInput,
} from '../history/tool-outcome-recorder';
import { composeInjection } from './injection';
import type { Database } from './sqlite';

/**
 * The part of task history a tool event needs only when it failed or its
 * session has an open failure: loaded on first use by lifecycle-history.ts
 * (a dynamic import), so a hook answering a successful tool call never
 * evaluates the signature rules, the pattern store or the redaction patterns.
 */

/** The title of the text that follows a failing tool event with a known fix. */
export const KNOWN_FIX_TITLE =
  '## Known fix for this error (Cairn task history: derived from earlier runs, check it before following)';

export function createHistoryRecorder(rootDir: string, injectTokens: number) {
  let db: Database | undefined;
  const access: HistoryAccess = {
    rootDir,
    db: () => (db ??= openHistoryDatabase(rootDir)),
    redact: (text) => redactSecrets(text).text,
  };
  return {
    /** Records the event; returns the injection (empty unless a known fix applies). */
    record(input: ToolOutcomeInput): string {
      const outcome = recordToolOutcome(access, input);
      if (!outcome.pattern) return '';
      return composeInjection(
        [{ title: KNOWN_FIX_TITLE, lines: renderFixPattern(outcome.pattern) }],
        injectTokens,
      );
    },
    endSession(ids: { agentId: string; sessionKey: string }, at: string): void {
      endSessionFailures(access, ids, at);
    },
    close(): void {
      db?.close();
    },
  };
}

export type HistoryRecorder = ReturnType<typeof createHistoryRecorder>;

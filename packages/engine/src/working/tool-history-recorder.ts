import { redactSecrets } from '@cairn/core';
import { renderKnownFix } from '../history/fix-pattern-render';
import { patternDetail } from '../history/fix-pattern-store';
import type { FixPatternDetail } from '../history/fix-pattern-types';
import { openHistoryDatabase } from '../history/history-database';
import {
  applySharedFixes,
  type SharedFixesFile,
  type SharedImport,
  sharedAuthorsOf,
} from '../history/shared-fixes';
import { ownSharedPatterns } from '../history/shared-fixes-export';
import type { SharedPattern } from '../history/shared-fixes-file';
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
    /**
     * Records the event; returns the injection (empty unless a known fix
     * applies) and the patterns the event turned verified, with their runs.
     */
    record(input: ToolOutcomeInput): { inject: string; verified: FixPatternDetail[] } {
      const outcome = recordToolOutcome(access, input);
      const verified = (outcome.verified ?? [])
        .map((id) => patternDetail(access.db(), id))
        .filter((detail): detail is FixPatternDetail => detail !== undefined);
      if (!outcome.pattern) return { inject: '', verified };
      const sharedBy = sharedAuthorsOf(access.db(), outcome.pattern.id);
      const inject = composeInjection(
        [{ title: KNOWN_FIX_TITLE, lines: renderKnownFix(outcome.pattern, sharedBy) }],
        injectTokens,
      );
      return { inject, verified };
    },
    /** Imports the other clones' shared fix patterns (read by the caller). */
    importShared(files: readonly SharedFixesFile[], repo: string, at: string): SharedImport {
      return applySharedFixes(access.db(), files, { repo, at });
    },
    /** What this clone shares in its `fixes/<author>.md`. */
    ownShared(): SharedPattern[] {
      return ownSharedPatterns(access.db(), rootDir);
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

import { redactSecrets } from '@cairn/core';
import type { Database } from '../store';
import { patternDetail } from './fix-pattern-store';
import type { FixPattern, FixPatternDetail } from './fix-pattern-types';
import { openHistoryDatabase } from './history-database';
import {
  applySharedFixes,
  type SharedFixesFile,
  type SharedImport,
  sharedAuthorsOf,
} from './shared-fixes';
import { ownSharedPatterns } from './shared-fixes-export';
import type { SharedPattern } from './shared-fixes-file';
import {
  endSessionFailures,
  type HistoryAccess,
  recordToolOutcome,
  type ToolOutcomeInput,
} from './tool-outcome-recorder';

/**
 * The part of task history a tool event needs only when it failed or its
 * session has an open failure: loaded on first use (loadHistoryRecorder, a
 * dynamic import), so a hook answering a prompt or a successful tool call
 * never evaluates the signature rules, the pattern store or the redaction
 * patterns.
 */

/** A failure's known fix: its pattern, and the other clones that share it (none: this clone's own). */
export interface KnownFix {
  pattern: FixPattern;
  sharedBy: string[];
}

export function createHistoryRecorder(rootDir: string) {
  let db: Database | undefined;
  const access: HistoryAccess = {
    rootDir,
    db: () => (db ??= openHistoryDatabase(rootDir)),
    redact: (text) => redactSecrets(text).text,
  };
  return {
    /**
     * Records the event; returns the fix to show (a failure whose
     * signature has one) and the patterns the event turned verified, with
     * their runs.
     */
    record(input: ToolOutcomeInput): { fix?: KnownFix; verified: FixPatternDetail[] } {
      const outcome = recordToolOutcome(access, input);
      const verified = (outcome.verified ?? [])
        .map((id) => patternDetail(access.db(), id))
        .filter((detail): detail is FixPatternDetail => detail !== undefined);
      if (!outcome.pattern) return { verified };
      const sharedBy = sharedAuthorsOf(access.db(), outcome.pattern.id);
      return { fix: { pattern: outcome.pattern, sharedBy }, verified };
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

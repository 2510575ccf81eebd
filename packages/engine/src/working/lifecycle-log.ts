import { renameSync } from 'node:fs';
import { join } from 'node:path';
import {
  appendStateFile,
  assertNoLinks,
  CAIRN_DIR,
  CAIRN_STATE_DIR,
  cairnStatePath,
  formatError,
  readCairnFileSync,
} from '@cairn/core';

/** One failure a lifecycle call swallowed so the agent never saw it. */
export interface LifecycleFailure {
  at: string;
  event: string;
  agentId?: string;
  sessionKey?: string;
  code: string;
  message: string;
}

const LOG_FILENAME = 'lifecycle-errors.jsonl';
const LOG_RELATIVE = `${CAIRN_DIR}/${CAIRN_STATE_DIR}/${LOG_FILENAME}`;
/** Where `cairn doctor --clear` moves the failures it has shown (the one before is replaced). */
const SEEN_FILENAME = 'lifecycle-errors.seen.jsonl';

export function lifecycleLogPath(rootDir: string): string {
  return join(cairnStatePath(rootDir), LOG_FILENAME);
}

/**
 * Appends a failure; never throws (the log is best effort by design). The
 * file is never reached through a link: a link there (or on the way) is
 * refused and the failure goes to stderr instead.
 */
export function logLifecycleFailure(rootDir: string, failure: LifecycleFailure): void {
  try {
    appendStateFile(rootDir, LOG_RELATIVE, `${JSON.stringify(failure)}\n`);
  } catch (error) {
    // The hook must still not fail; stderr is the one place left to say so.
    process.stderr.write(`cairn: cannot log a lifecycle failure: ${formatError(error)}\n`);
  }
}

/** The most recent failures, newest last, for `cairn doctor`. */
export function recentLifecycleFailures(rootDir: string, limit = 20): LifecycleFailure[] {
  try {
    const bytes = readCairnFileSync(rootDir, LOG_RELATIVE);
    if (!bytes) return [];
    const lines = bytes.toString('utf8').trim().split('\n').filter(Boolean);
    return lines.slice(-limit).flatMap((line) => {
      try {
        return [JSON.parse(line) as LifecycleFailure];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/**
 * Marks the logged failures as seen (`cairn doctor --clear`): the log
 * moves to `lifecycle-errors.seen.jsonl`, so doctor is ok again until the
 * next failure. Returns how many failures it held.
 */
export function clearLifecycleFailures(rootDir: string): number {
  const count = recentLifecycleFailures(rootDir, Number.MAX_SAFE_INTEGER).length;
  if (count === 0) return 0;
  assertNoLinks(rootDir, join(CAIRN_DIR, CAIRN_STATE_DIR, SEEN_FILENAME));
  renameSync(lifecycleLogPath(rootDir), join(cairnStatePath(rootDir), SEEN_FILENAME));
  return count;
}

/**
 * What a failed event left undone and how to redo it, for `cairn doctor`.
 * Every event fails open (the agent went on); these say what Cairn lost.
 */
export function lifecycleFailureFix(failure: LifecycleFailure): string {
  const session = failure.sessionKey ? ` ${JSON.stringify(failure.sessionKey)}` : '';
  const redo = (event: string) =>
    failure.agentId && failure.sessionKey
      ? ` (\`echo '${JSON.stringify({ agentId: failure.agentId, sessionKey: failure.sessionKey })}' | cairn lifecycle ${event}\` runs it again)`
      : '';
  switch (failure.event) {
    case 'session-end':
      return `session${session} has no summary, run digest or head refresh: its transcript is kept${redo('session-end')}; then \`cairn doctor --clear\``;
    case 'compaction-complete':
      return `the compaction of session${session} was not recorded${redo('compaction-complete')}; then \`cairn doctor --clear\``;
    default:
      return failure.code === 'INVALID_INPUT'
        ? 'the harness sent an event Cairn refuses (the message says why): nothing was recorded for it; once the cause is fixed, `cairn doctor --clear`'
        : 'the event recorded nothing more and injected nothing; once the cause in the message is fixed, `cairn doctor --clear`';
  }
}

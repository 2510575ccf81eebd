import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appendStateFile,
  assertNoLinks,
  CAIRN_DIR,
  CAIRN_STATE_DIR,
  cairnStatePath,
  formatError,
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
const LOG_RELATIVE = join(CAIRN_DIR, CAIRN_STATE_DIR, LOG_FILENAME);

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
    assertNoLinks(rootDir, LOG_RELATIVE);
    if (!lstatSync(lifecycleLogPath(rootDir)).isFile()) return [];
    const lines = readFileSync(lifecycleLogPath(rootDir), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean);
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

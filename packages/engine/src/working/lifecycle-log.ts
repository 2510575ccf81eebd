import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';

/** One failure a lifecycle call swallowed so the agent never saw it. */
export interface LifecycleFailure {
  at: string;
  event: string;
  agentId?: string;
  sessionKey?: string;
  code: string;
  message: string;
}

export function lifecycleLogPath(rootDir: string): string {
  return join(cairnStatePath(rootDir), 'lifecycle-errors.jsonl');
}

/** Appends a failure; never throws (the log is best effort by design). */
export function logLifecycleFailure(rootDir: string, failure: LifecycleFailure): void {
  try {
    mkdirSync(cairnStatePath(rootDir), { recursive: true });
    appendFileSync(lifecycleLogPath(rootDir), `${JSON.stringify(failure)}\n`);
  } catch {
    // Nowhere left to report to; the hook must still not fail.
  }
}

/** The most recent failures, newest last, for `cairn doctor`. */
export function recentLifecycleFailures(rootDir: string, limit = 20): LifecycleFailure[] {
  try {
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

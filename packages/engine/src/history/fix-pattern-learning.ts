// node:crypto is loaded on first use: a hook process that hashes nothing never loads it.
import { sha256Hex } from '@cairn/core';
import type { Database } from '../working/sqlite';
import {
  addRun,
  getPatternRow,
  insertPattern,
  patternsFor,
  resolvingSessions,
  updatePattern,
} from './fix-pattern-store';
import type { FixPattern, RecordedFailure } from './fix-pattern-types';
import { collapsedKeys, type FixStep, followsPattern } from './fix-steps';

/** Fix patterns with their outcome: what a resolved failure teaches (issue 15 point 3). */

/** A run that failed again after following a pattern this often (and more than it worked) deprecates it. */
export const DEPRECATE_AFTER_FAILURES = 2;

export function fixPatternId(
  scope: Pick<FixPattern, 'repo' | 'namespace' | 'signature' | 'stepsKey'>,
) {
  const key = [scope.repo, scope.namespace, scope.signature, scope.stepsKey].join('\u0000');
  return `FIX-${sha256Hex(key).slice(0, 12)}`;
}

/** Best first: verified before candidate, then by net successes, then the newest. */
export function rankPatterns(patterns: readonly FixPattern[]): FixPattern[] {
  const stateRank = (p: FixPattern) =>
    p.state === 'verified' ? 0 : p.state === 'candidate' ? 1 : 2;
  return [...patterns].sort(
    (a, b) =>
      stateRank(a) - stateRank(b) ||
      b.succeeded - b.failed - (a.succeeded - a.failed) ||
      b.updatedAt.localeCompare(a.updatedAt),
  );
}

/** The best pattern to show for a signature (never a deprecated one). */
export function bestPatternFor(db: Database, failure: RecordedFailure): FixPattern | undefined {
  return rankPatterns(patternsFor(db, failure).filter((p) => p.state !== 'deprecated'))[0];
}

interface Resolution {
  failure: RecordedFailure;
  steps: FixStep[];
  successEventId: string;
  at: string;
}

/**
 * A failure resolved by the steps since it: the pattern it followed gets the
 * success (and turns verified once two runs resolved the signature with it),
 * else the steps become a new candidate. Returns the pattern's id, and
 * whether this resolution turned it verified.
 */
export function learnFromResolution(
  db: Database,
  resolution: Resolution,
): { id: string; verified: boolean } {
  const { failure, steps, successEventId, at } = resolution;
  const keys = collapsedKeys(steps);
  const stepsKey = keys.join(' > ');
  const known = patternsFor(db, failure);
  const exact = known.find((p) => p.stepsKey === stepsKey);
  const followed =
    exact ??
    rankPatterns(known.filter((p) => p.state !== 'deprecated')).find((p) =>
      followsPattern(p.stepsKey, keys),
    );
  const run = {
    agentId: failure.agentId,
    sessionKey: failure.sessionKey,
    failureEventId: failure.eventId,
    successEventId,
    at,
  };
  if (followed) {
    updatePattern(db, followed.id, { succeeded: 1, at });
    addRun(db, followed.id, { ...run, role: 'succeeded' });
    if (followed.state === 'candidate' && resolvingSessions(db, followed.id) >= 2) {
      updatePattern(db, followed.id, {
        state: 'verified',
        reason: 'resolved the signature again in another run',
        at,
      });
      return { id: followed.id, verified: true };
    }
    return { id: followed.id, verified: false };
  }
  const scope = { repo: failure.repo, namespace: failure.namespace, signature: failure.signature };
  const id = fixPatternId({ ...scope, stepsKey });
  insertPattern(db, {
    id,
    ...scope,
    family: failure.family,
    normalized: failure.normalized,
    commandFamily: failure.commandFamily,
    stepsKey,
    steps,
    state: 'candidate',
    reason: null,
    applied: 0,
    succeeded: 1,
    failed: 0,
    failureEventId: failure.eventId,
    successEventId,
    createdAt: at,
    updatedAt: at,
  });
  addRun(db, id, { ...run, role: 'origin' });
  return { id, verified: false };
}

/**
 * A run that was shown a pattern, followed it, and met the same signature
 * again: the pattern failed once; past DEPRECATE_AFTER_FAILURES failures
 * that outnumber its successes it is deprecated.
 */
export function recordPatternFailure(
  db: Database,
  patternId: string,
  run: { agentId: string; sessionKey: string; failureEventId: string; at: string },
): void {
  updatePattern(db, patternId, { failed: 1, at: run.at });
  addRun(db, patternId, { ...run, role: 'failed', successEventId: null });
  const pattern = getPatternRow(db, patternId);
  if (
    pattern &&
    pattern.state !== 'deprecated' &&
    pattern.failed >= DEPRECATE_AFTER_FAILURES &&
    pattern.failed > pattern.succeeded
  ) {
    updatePattern(db, patternId, {
      state: 'deprecated',
      reason: `stopped working: followed and failed again ${pattern.failed} times`,
      at: run.at,
    });
  }
}

// node:crypto is loaded on first use: a hook process that hashes nothing never loads it.
import { sha256Hex } from '@cairn/core';
import type { Database } from '../store';
import {
  addRun,
  getPatternRow,
  insertPattern,
  patternsFor,
  resolvingSessions,
  updatePattern,
} from './fix-pattern-store';
import type { FixPattern, RecordedFailure } from './fix-pattern-types';
import { collapsedKeys, type FixStep, followsSteps, stepsIdentity } from './fix-steps';
import { isLowInformation } from './signature-information';

/** Fix patterns with their outcome: what a resolved failure teaches. */

/** A run that failed again after following a pattern this often (and more than it worked) deprecates it. */
export const DEPRECATE_AFTER_FAILURES = 2;

/** A pattern's id: its scope, its step keys and what its steps ran or changed (stepsIdentity). */
export function fixPatternId(
  scope: Pick<FixPattern, 'repo' | 'namespace' | 'signature' | 'stepsKey'>,
  identity: string,
) {
  const key = [scope.repo, scope.namespace, scope.signature, scope.stepsKey, identity];
  return `FIX-${sha256Hex(key.join('\u0000')).slice(0, 12)}`;
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

/**
 * The best pattern to show for a failure: never a deprecated one, and none
 * for a low-information signature (it would join failures that need other fixes).
 */
export function bestPatternFor(db: Database, failure: RecordedFailure): FixPattern | undefined {
  if (isLowInformation(failure)) return undefined;
  return rankPatterns(patternsFor(db, failure).filter((p) => p.state !== 'deprecated'))[0];
}

interface Resolution {
  failure: RecordedFailure;
  steps: FixStep[];
  successEventId: string;
  at: string;
  /** Patterns shown to this session after the failure: credited first when their steps ran. */
  shown?: readonly string[];
}

/**
 * The known pattern whose steps this resolution ran (followsSteps): one
 * the session was shown first, then one with the same step keys, then the
 * best ranked; none when no pattern's steps ran.
 */
function followedPattern(
  known: readonly FixPattern[],
  steps: readonly FixStep[],
  stepsKey: string,
  shown: readonly string[],
): FixPattern | undefined {
  const ran = known.filter((p) => followsSteps(p.steps, steps));
  return (
    ran.find((p) => shown.includes(p.id) && p.state !== 'deprecated') ??
    ran.find((p) => p.stepsKey === stepsKey) ??
    rankPatterns(ran.filter((p) => p.state !== 'deprecated'))[0]
  );
}

/**
 * A failure resolved by the steps since it: the pattern whose steps it ran
 * gets the success (and turns verified once two runs resolved the
 * signature with it), else the steps become a new candidate. Returns the
 * pattern's id, and whether this resolution turned it verified.
 */
export function learnFromResolution(
  db: Database,
  resolution: Resolution,
): { id: string; verified: boolean } {
  const { failure, steps, successEventId, at } = resolution;
  const keys = collapsedKeys(steps);
  const stepsKey = keys.join(' > ');
  const known = patternsFor(db, failure);
  const scope = { repo: failure.repo, namespace: failure.namespace, signature: failure.signature };
  const id = fixPatternId({ ...scope, stepsKey }, stepsIdentity(steps));
  const followed =
    followedPattern(known, steps, stepsKey, resolution.shown ?? []) ??
    known.find((p) => p.id === id);
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
 * A run that was shown a pattern, ran its steps, and met the same signature
 * again: the pattern was applied and failed once; past
 * DEPRECATE_AFTER_FAILURES failures that outnumber its successes it is
 * deprecated.
 */
export function recordPatternFailure(
  db: Database,
  patternId: string,
  run: { agentId: string; sessionKey: string; failureEventId: string; at: string },
): void {
  updatePattern(db, patternId, { applied: 1, failed: 1, at: run.at });
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

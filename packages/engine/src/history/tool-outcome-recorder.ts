import type { Database } from '../store';
import { commandFamily, toolFamily } from './command-family';
import { errorSignature } from './error-signature';
import {
  type Application,
  insertApplication,
  pendingApplications,
  setApplicationOutcome,
} from './fix-applications';
import { bestPatternFor, learnFromResolution, recordPatternFailure } from './fix-pattern-learning';
import {
  closeFailure,
  getPatternRow,
  insertFailure,
  insertStep,
  openFailures,
  stepsAfter,
  updatePattern,
} from './fix-pattern-store';
import type { FixPattern, RecordedFailure } from './fix-pattern-types';
import { fixStepOf, followsSteps } from './fix-steps';
import { hasOpenFailureFlag, setOpenFailureFlag } from './open-failure-flag';
import { detectToolFailure, type ToolEvent, toolEventFromRecorded } from './tool-failure';

/** A fix longer than this many steps is not a pattern: the failure is dropped (abandoned). */
export const MAX_FIX_STEPS = 40;

export interface ToolOutcomeInput {
  agentId: string;
  sessionKey: string;
  threadKey: string;
  repo: string;
  namespace: string;
  /** The lineage transcript entry of this event (`T:<transcript>:<seq>`). */
  eventId: string;
  toolName: string;
  input: unknown;
  output: unknown;
  at: string;
}

export interface HistoryAccess {
  rootDir: string;
  /** history.db, opened on first use. */
  db(): Database;
  /** Redacts secrets from commands and paths kept as steps. */
  redact(text: string): string;
}

export interface ToolOutcome {
  failed: boolean;
  /** The failure recorded, when the event failed. */
  failure?: RecordedFailure;
  /** The best known pattern for its signature, shown (counted applied once the session runs its steps). */
  pattern?: FixPattern;
  /** Failures this event resolved, with the pattern each was credited to. */
  resolved: { failure: RecordedFailure; patternId?: string }[];
  /** Patterns this event turned verified (another run resolved the signature by following them). */
  verified?: string[];
}

const familyOf = (event: ToolEvent) =>
  commandFamily(event.command) ?? toolFamily(event.tool) ?? event.tool;

/**
 * Records one tool event's outcome. A successful event in a session without
 * an open failure returns at once (one stat: see open-failure-flag.ts);
 * otherwise history.db records the failure (and answers with the best
 * pattern for its signature), the step, or the resolution.
 */
export function recordToolOutcome(history: HistoryAccess, input: ToolOutcomeInput): ToolOutcome {
  const event = toolEventFromRecorded(input.toolName, input.input, input.output);
  const detected = detectToolFailure(event);
  if (!detected.failed && !hasOpenFailureFlag(history.rootDir, input.agentId, input.sessionKey))
    return { failed: false, resolved: [] };
  const db = history.db();
  const outcome = db
    .transaction(() =>
      detected.failed
        ? onFailure(db, input, event, detected.errorText)
        : onSuccess(db, history, input, event),
    )
    .immediate();
  const stillOpen = openFailures(db, input.agentId, input.sessionKey).length > 0;
  setOpenFailureFlag(history.rootDir, input.agentId, input.sessionKey, stillOpen);
  return outcome;
}

function onFailure(
  db: Database,
  input: ToolOutcomeInput,
  event: ToolEvent,
  errorText: string,
): ToolOutcome {
  const context = { tool: event.tool, ...(event.command ? { command: event.command } : {}) };
  const signature = errorSignature(errorText, context);
  const ids = { agentId: input.agentId, sessionKey: input.sessionKey };
  // A pattern shown earlier in this run, its steps run, and the same error again: applied, failed.
  for (const application of pendingApplications(db, ids)) {
    const pattern = getPatternRow(db, application.patternId);
    if (pattern?.signature !== signature.signature) continue;
    if (!followsSteps(pattern.steps, stepsAfter(db, ids, application.stepCursor))) continue;
    setApplicationOutcome(db, application.id, 'failed');
    recordPatternFailure(db, pattern.id, { ...ids, failureEventId: input.eventId, at: input.at });
  }
  const failure = insertFailure(db, {
    eventId: input.eventId,
    ...ids,
    threadKey: input.threadKey,
    repo: input.repo,
    namespace: input.namespace,
    signature: signature.signature,
    family: signature.family,
    normalized: signature.normalized,
    commandFamily: familyOf(event),
    at: input.at,
  });
  const pattern = bestPatternFor(db, failure);
  if (!pattern) return { failed: true, failure, resolved: [] };
  // Shown, not applied: `applied` counts once this session runs the pattern's steps.
  insertApplication(
    db,
    ids,
    { patternId: pattern.id, failureId: failure.id, stepCursor: failure.stepCursor },
    input.at,
  );
  return { failed: true, failure, pattern, resolved: [] };
}

function onSuccess(
  db: Database,
  history: HistoryAccess,
  input: ToolOutcomeInput,
  event: ToolEvent,
): ToolOutcome {
  const ids = { agentId: input.agentId, sessionKey: input.sessionKey };
  const family = familyOf(event);
  const open = openFailures(db, ids.agentId, ids.sessionKey);
  const resolving = open.filter((failure) => failure.commandFamily === family);
  const resolved: ToolOutcome['resolved'] = [];
  // One pattern per signature: from its first failure, the longest window of steps.
  const first = new Map<string, RecordedFailure>();
  for (const failure of resolving)
    if (!first.has(failure.signature)) first.set(failure.signature, failure);
  const credited = new Map<string, string | undefined>();
  const verified: string[] = [];
  const pending = pendingApplications(db, ids);
  for (const [signature, failure] of first) {
    const steps = stepsAfter(db, ids, failure.stepCursor);
    const shown = pending.map((application) => application.patternId);
    const learned =
      steps.length > MAX_FIX_STEPS
        ? undefined
        : learnFromResolution(db, {
            failure,
            steps,
            successEventId: input.eventId,
            at: input.at,
            shown,
          });
    if (learned?.verified) verified.push(learned.id);
    credited.set(signature, learned?.id);
  }
  for (const failure of resolving) {
    const patternId = credited.get(failure.signature);
    closeFailure(db, failure.id, {
      status: patternId ? 'resolved' : 'abandoned',
      eventId: input.eventId,
      at: input.at,
      ...(patternId ? { patternId } : {}),
    });
    resolved.push({ failure, ...(patternId ? { patternId } : {}) });
  }
  for (const application of pending) {
    const failure = resolving.find((f) => f.id === application.failureId);
    if (!failure) continue;
    settleApplication(db, ids, application, {
      outcome:
        credited.get(failure.signature) === application.patternId ? 'succeeded' : 'other-fix',
      at: input.at,
    });
  }
  if (open.length > resolving.length) {
    const step = fixStepOf(event, input.input, input.eventId, history.redact);
    if (step) insertStep(db, ids, step, input.at);
  }
  return { failed: false, resolved, ...(verified.length > 0 ? { verified } : {}) };
}

/**
 * Closes a shown pattern's application. It counts as applied only when the
 * session ran the pattern's steps (followsSteps); otherwise its outcome is
 * `not-followed` and the pattern's counts do not move.
 */
function settleApplication(
  db: Database,
  ids: { agentId: string; sessionKey: string },
  application: Application,
  end: { outcome: 'succeeded' | 'other-fix' | 'abandoned'; at: string },
): void {
  const pattern = getPatternRow(db, application.patternId);
  const ran =
    pattern !== undefined &&
    followsSteps(pattern.steps, stepsAfter(db, ids, application.stepCursor));
  setApplicationOutcome(db, application.id, ran ? end.outcome : 'not-followed');
  if (ran) updatePattern(db, application.patternId, { applied: 1, at: end.at });
}

/** Ends a session's open failures (abandoned: never resolved in it) and clears its flag. */
export function endSessionFailures(
  history: HistoryAccess,
  ids: { agentId: string; sessionKey: string },
  at: string,
): number {
  if (!hasOpenFailureFlag(history.rootDir, ids.agentId, ids.sessionKey)) return 0;
  const db = history.db();
  const open = openFailures(db, ids.agentId, ids.sessionKey);
  db.transaction(() => {
    for (const failure of open) closeFailure(db, failure.id, { status: 'abandoned', at });
    for (const application of pendingApplications(db, ids))
      settleApplication(db, ids, application, { outcome: 'abandoned', at });
  }).immediate();
  setOpenFailureFlag(history.rootDir, ids.agentId, ids.sessionKey, false);
  return open.length;
}

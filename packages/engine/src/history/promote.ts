import { redactSecrets } from '@cairn/core';
import type { AddUnitInput, AddUnitResult, MemoryRecord } from '../units';
import { projectRelative } from './project-relative';
import type { Gotcha, StoredRunDigest } from './run-digest-types';
import { isLowInformation, signatureInformation } from './signature-information';

/**
 * Promotion (seed 004 §5.3.3): a lesson of task history becomes a memory
 * unit with review state `draft` and its evidence in `source`. Drafts are
 * found by search and listed by `cairn review`, but the pack's trust
 * policy never injects them; a human approves one (`cairn review approve`,
 * same unit id) before it counts as approved memory.
 */

/** What promotion needs of the project's memory (a Cairn fits). */
export interface PromotionMemory {
  add(input: AddUnitInput): Promise<AddUnitResult>;
  list(filter?: { review?: 'draft' | 'approved' | 'deprecated' }): Promise<MemoryRecord[]>;
}

/** A gotcha met in at least `minRuns` runs, with the runs that met it. */
export interface RecurringGotcha {
  signature: string;
  normalized: string;
  family: string;
  /** Run ids, newest first. */
  runs: string[];
  /** The runs' evidence: `<runId> <eventId>` for each run that met it. */
  events: string[];
  /** The command of the newest resolution, when one run resolved it. */
  resolvedBy?: { runId: string; eventId: string; command?: string };
}

/** Gotchas whose signature came back in `minRuns` runs or more (digests newest first). */
export function recurringGotchas(
  digests: readonly StoredRunDigest[],
  minRuns = 2,
): RecurringGotcha[] {
  const bySignature = new Map<string, RecurringGotcha>();
  for (const { digest } of digests) {
    for (const gotcha of digest.gotchas) {
      const entry = bySignature.get(gotcha.signature) ?? {
        signature: gotcha.signature,
        normalized: gotcha.normalized,
        family: gotcha.family,
        runs: [],
        events: [],
      };
      if (!entry.runs.includes(digest.runId)) {
        entry.runs.push(digest.runId);
        entry.events.push(`${digest.runId} ${gotcha.eventId}`);
      }
      if (!entry.resolvedBy && gotcha.status === 'resolved' && gotcha.resolvedBy) {
        entry.resolvedBy = { runId: digest.runId, eventId: gotcha.resolvedBy };
      }
      bySignature.set(gotcha.signature, entry);
    }
  }
  return [...bySignature.values()].filter((entry) => entry.runs.length >= minRuns);
}

/** The provenance tag every promoted unit's `source` starts with, then the signature. */
export const PROMOTION_SOURCE = 'cairn-history';
const MAX_SOURCE = 480;

/** `cairn-history <kind> signature=<sig> [pattern=<id>] [approved=person] evidence=<runs>`. */
export const sourceFor = (
  kind: string,
  signature: string,
  evidence: readonly string[],
  tags: readonly string[] = [],
) =>
  [
    `${PROMOTION_SOURCE} ${kind} signature=${signature}`,
    ...tags,
    `evidence=${evidence.join(',').replace(/\s+/g, ':')}`,
  ]
    .join(' ')
    .slice(0, MAX_SOURCE);

/** True when a unit promoted from this signature exists in any review state (a deprecated one included). */
async function alreadyPromoted(memory: PromotionMemory, signature: string): Promise<boolean> {
  const units = await memory.list();
  return units.some((unit) => unit.source?.includes(`signature=${signature} `) === true);
}

export type PromotionResult =
  | { action: 'promoted'; memoryId: string; signature: string }
  | { action: 'skipped'; signature: string; reason: string };

async function promote(
  memory: PromotionMemory,
  input: {
    signature: string;
    normalized: string;
    text: string;
    category: 'fact' | 'decision';
    source: string;
  },
): Promise<PromotionResult> {
  // Too little information to stand for one failure: never a unit (docs/HISTORY.md).
  const information = signatureInformation(input);
  if (information.lowInformation) {
    return {
      action: 'skipped',
      signature: input.signature,
      reason: `low-information signature: ${information.reason}`,
    };
  }
  if (await alreadyPromoted(memory, input.signature)) {
    return { action: 'skipped', signature: input.signature, reason: 'already promoted' };
  }
  // Units live in files a team commits: no secret from an error message goes there.
  const result = await memory.add({
    text: redactSecrets(input.text).text,
    category: input.category,
    review: 'draft',
    source: redactSecrets(input.source).text,
  });
  if (result.action === 'created') {
    return { action: 'promoted', memoryId: result.memoryId, signature: input.signature };
  }
  return { action: 'skipped', signature: input.signature, reason: result.action };
}

/** A recurring gotcha as a draft `fact`: the error, how often, and what resolved it last. */
export function promoteRecurringGotcha(
  memory: PromotionMemory,
  gotcha: RecurringGotcha,
): Promise<PromotionResult> {
  const fix = gotcha.resolvedBy
    ? ` It was resolved in run ${gotcha.resolvedBy.runId} (tool event ${gotcha.resolvedBy.eventId}).`
    : ' No run has resolved it yet.';
  return promote(memory, {
    signature: gotcha.signature,
    normalized: gotcha.normalized,
    category: 'fact',
    text: `Recurring error in this repository (${gotcha.family}): ${gotcha.normalized}.${fix}`,
    source: sourceFor('gotcha', gotcha.signature, gotcha.events),
  });
}

/**
 * A verified fix pattern as a draft `decision`, for the pattern store to
 * call: the signature, the fix steps, the runs it worked in.
 */
export function promoteFixPattern(
  memory: PromotionMemory,
  pattern: {
    signature: string;
    normalized: string;
    steps: readonly string[];
    evidenceRuns: readonly string[];
    /** The pattern's id, kept in `source` so its approval finds the unit again. */
    id?: string;
  },
): Promise<PromotionResult> {
  return promote(memory, {
    signature: pattern.signature,
    normalized: pattern.normalized,
    category: 'decision',
    text: fixPatternUnitText(pattern),
    source: sourceFor(
      'pattern',
      pattern.signature,
      pattern.evidenceRuns,
      pattern.id ? [`pattern=${pattern.id}`] : [],
    ),
  });
}

/** The text of a fix pattern's unit (redacted when stored). */
export function fixPatternUnitText(pattern: { normalized: string; steps: readonly string[] }) {
  return `When ${pattern.normalized} happens here, fix it by: ${pattern.steps.join('; ')}.`;
}

/**
 * A pattern's steps as its unit reads them: `<kind> <detail>`, then the
 * command that then succeeded; `relative` (projectRelative) makes the
 * project's paths relative: the unit is committed, read in other clones.
 */
export function fixPatternUnitSteps(
  pattern: {
    commandFamily: string;
    steps: readonly { kind: string; detail: string }[];
  },
  relative: (text: string) => string = (text) => text,
): string[] {
  const steps = pattern.steps.map((step) => `${step.kind} ${relative(step.detail)}`);
  return [...(steps.length > 0 ? steps : ['run it again']), `then \`${pattern.commandFamily}\``];
}

/** A pattern the store just marked verified, as promoteFixPattern takes it. */
export function promoteVerifiedPattern(
  memory: PromotionMemory,
  rootDir: string,
  pattern: {
    id?: string;
    signature: string;
    normalized: string;
    commandFamily: string;
    steps: readonly { kind: string; detail: string }[];
    runs: readonly { sessionKey: string }[];
  },
): Promise<PromotionResult> {
  return promoteFixPattern(memory, {
    ...(pattern.id ? { id: pattern.id } : {}),
    signature: pattern.signature,
    normalized: pattern.normalized,
    steps: fixPatternUnitSteps(pattern, projectRelative(rootDir)),
    evidenceRuns: [...new Set(pattern.runs.map((run) => run.sessionKey))],
  });
}

/**
 * At session end: promotes the gotchas of this run that earlier runs met
 * too (at most `max`), each once per signature.
 */
export async function promoteRecurringFromRun(
  memory: PromotionMemory,
  run: StoredRunDigest,
  digests: readonly StoredRunDigest[],
  max = 2,
): Promise<PromotionResult[]> {
  const mine = new Set(run.digest.gotchas.map((gotcha: Gotcha) => gotcha.signature));
  const recurring = recurringGotchas(digests).filter(
    (gotcha) => mine.has(gotcha.signature) && !isLowInformation(gotcha),
  );
  const results: PromotionResult[] = [];
  for (const gotcha of recurring.slice(0, max)) {
    results.push(await promoteRecurringGotcha(memory, gotcha));
  }
  return results;
}

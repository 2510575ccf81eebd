import { CairnError, type ReviewState, redactSecrets } from '@cairn/core';
import type { AddUnitResult, MemoryRecord, ReviewUnitResult } from '../units';
import type { FixPatternDetail } from './fix-pattern-types';
import { approveFixPattern, type NamespaceOption } from './fix-patterns-api';
import { projectRelative } from './project-relative';
import {
  fixPatternUnitSteps,
  fixPatternUnitText,
  PROMOTION_SOURCE,
  type PromotionMemory,
  sourceFor,
} from './promote';

/**
 * A person approves a fix pattern (`cairn history approve`,
 * `memory_fix_pattern_approve`): it becomes verified and, like a pattern
 * verified by a later run, it is promoted to a `decision` unit (seed 004
 * §5.3.3). A promotion defaults to `draft` "unless explicitly marked
 * approved (human- or policy-gated)": this one is a person's explicit
 * approval, so the unit is `approved`. Idempotent: the pattern's unit is
 * found again by the `pattern=<id>` in its source (or, for a unit promoted
 * before that tag, by its signature and text), approved in place when it
 * is a draft (same id), left alone when already approved, and never
 * revived when a review deprecated it.
 */

/** What approval needs of the project's memory (a Cairn fits). */
export interface ApprovalMemory extends PromotionMemory {
  setReview(memoryId: string, review: ReviewState): Promise<ReviewUnitResult>;
}

export type ApprovalPromotion =
  /** A new unit, approved. */
  | { action: 'promoted'; memoryId: string; review: 'approved' }
  /** The pattern's draft unit, approved in place (same id). */
  | { action: 'approved'; memoryId: string; review: 'approved'; previous: ReviewState }
  /** The pattern's unit was already approved, or a review deprecated it: nothing written. */
  | { action: 'unchanged'; memoryId: string; review: ReviewState; reason: string }
  /** Nothing written (a read-only workspace, a unit that could not be written). */
  | { action: 'skipped'; reason: string };

export interface ApprovedPattern {
  pattern: FixPatternDetail;
  promotion: ApprovalPromotion;
}

/**
 * The unit a pattern was promoted to: tagged with its id, or an untagged
 * one with one of its texts (with the project's paths relative, or, as
 * before they were, absolute).
 */
function unitOf(units: readonly MemoryRecord[], pattern: FixPatternDetail, texts: string[]) {
  const tagged = units.find((unit) => unit.source?.split(' ').includes(`pattern=${pattern.id}`));
  if (tagged) return tagged;
  const prefix = `${PROMOTION_SOURCE} pattern signature=${pattern.signature} `;
  return units.find(
    (unit) =>
      unit.kind === 'UNIT' &&
      unit.source?.startsWith(prefix) === true &&
      !unit.source.includes(' pattern=') &&
      texts.includes(unit.text.trim()),
  );
}

async function approveUnit(
  memory: ApprovalMemory,
  unit: Pick<MemoryRecord, 'memoryId' | 'review'>,
): Promise<ApprovalPromotion> {
  const review = unit.review ?? 'approved';
  if (review === 'approved') {
    return { action: 'unchanged', memoryId: unit.memoryId, review, reason: 'already approved' };
  }
  if (review === 'deprecated') {
    const reason = 'a review deprecated it; `cairn review approve` revives it';
    return { action: 'unchanged', memoryId: unit.memoryId, review, reason };
  }
  const result = await memory.setReview(unit.memoryId, 'approved');
  if (result.action === 'failed') return { action: 'skipped', reason: result.message };
  return { action: 'approved', memoryId: unit.memoryId, review: 'approved', previous: review };
}

function addedPromotion(
  result: AddUnitResult,
  memory: ApprovalMemory,
  units: readonly MemoryRecord[],
): Promise<ApprovalPromotion> | ApprovalPromotion {
  if (result.action === 'created') {
    return { action: 'promoted', memoryId: result.memoryId, review: 'approved' };
  }
  if (result.action === 'duplicate' && result.existing.kind === 'UNIT') {
    // The same text is a unit already (added by hand, or by another pattern): approve that one.
    const unit = units.find((u) => u.memoryId === result.existing.memoryId);
    return approveUnit(memory, { memoryId: result.existing.memoryId, review: unit?.review });
  }
  const reason = result.action === 'failed' ? result.message : 'the same text is raw notes';
  return { action: 'skipped', reason };
}

/** Promotes an approved pattern to an approved `decision` unit, or approves its existing unit. */
export async function promoteApprovedPattern(
  memory: ApprovalMemory,
  pattern: FixPatternDetail,
  rootDir?: string,
): Promise<ApprovalPromotion> {
  const textOf = (relative?: (text: string) => string) =>
    redactSecrets(fixPatternUnitText({ ...pattern, steps: fixPatternUnitSteps(pattern, relative) }))
      .text;
  const text = textOf(rootDir ? projectRelative(rootDir) : undefined);
  const units = await memory.list();
  const existing = unitOf(units, pattern, [text, textOf()]);
  if (existing) return approveUnit(memory, existing);
  const evidence = [...new Set(pattern.runs.map((run) => run.sessionKey))];
  const source = sourceFor('pattern', pattern.signature, evidence, [
    `pattern=${pattern.id}`,
    'approved=person',
  ]);
  const result = await memory.add({
    text,
    category: 'decision',
    review: 'approved',
    source: redactSecrets(source).text,
  });
  return addedPromotion(result, memory, units);
}

/**
 * Approves the pattern (verified, in history.db) and promotes it. The
 * approval stands when the promotion cannot be written (a read-only
 * workspace): the answer says why nothing was promoted.
 */
export async function approveAndPromoteFixPattern(
  rootDir: string,
  memory: ApprovalMemory,
  id: string,
  options: { reason?: string; now?: Date } & NamespaceOption = {},
): Promise<ApprovedPattern> {
  const pattern = approveFixPattern(rootDir, id, options);
  try {
    return { pattern, promotion: await promoteApprovedPattern(memory, pattern, rootDir) };
  } catch (error) {
    if (!CairnError.isInstance(error) || error.code !== 'READ_ONLY') throw error;
    return { pattern, promotion: { action: 'skipped', reason: 'the workspace is read-only' } };
  }
}

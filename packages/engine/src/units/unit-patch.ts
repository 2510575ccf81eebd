import {
  type CairnSettings,
  dailyMemoryFileName,
  type LocatedUnit,
  type MemoryCategory,
  type MemoryUnit,
  missingAsUndefined,
  type ParsedDocument,
  type ReviewState,
  readMemoryFileExact,
  serializeUnit,
  serializeUnitBlock,
  sha256Hex,
  UNIT_ID_PATTERN,
  wellFormedText,
} from '@cairn/core';
import type { WorkspaceWriter } from '../store';
import { appendBlock, removalEnd, spliceLines } from './unit-lines';
import { type FailedResult, failed } from './unit-results';
import { findUnit } from './workspace-scan';

/**
 * A patch on managed units, applied under the units lock in one go: every
 * precondition (the content hash each unit must still have, or `absent`)
 * is checked against the files as they are now, and only when all hold
 * are the files rewritten. A maintenance proposal is one of these; its
 * undo is another, built from what the first one replaced.
 */
export type UnitPatchOp =
  | { op: 'set-review'; memoryId: string; review: ReviewState }
  | { op: 'replace-text'; memoryId: string; text: string }
  | {
      op: 'add';
      memoryId: string;
      text: string;
      category: MemoryCategory;
      review: ReviewState;
      source?: string;
    }
  /** Only an undo removes: the unit a promotion added, unchanged since. */
  | { op: 'remove'; memoryId: string };

/** A unit's content hash, or `absent` for a unit that must not exist yet. */
export const ABSENT_UNIT = 'absent';

export interface UnitPatch {
  /** memoryId -> the hash it must have now (`unitContentHash`), or `absent`. */
  preconditions: Record<string, string>;
  ops: UnitPatchOp[];
}

export type UnitPatchResult =
  | {
      action: 'applied';
      /** Each touched unit as it was before (null: it did not exist). */
      before: Record<string, MemoryUnit | null>;
      /** Each touched unit's hash after (`absent` when removed). */
      after: Record<string, string>;
      paths: string[];
    }
  | { action: 'conflict'; memoryId: string; expected: string; actual: string; message: string }
  | FailedResult;

/** The hash a proposal's precondition names: category, review state and text of the unit. */
export function unitContentHash(unit: Pick<MemoryUnit, 'category' | 'review' | 'text'>): string {
  return sha256Hex(`${unit.category}\n${unit.review}\n${unit.text}`).slice(0, 16);
}

export interface PatchContext {
  rootDir: string;
  settings: CairnSettings;
  writer: WorkspaceWriter;
  now: () => Date;
  scan: () => Promise<ParsedDocument[]>;
  locked: <T>(fn: () => Promise<T>) => Promise<T | FailedResult>;
}

function checkPatch(patch: UnitPatch): FailedResult | undefined {
  const ids = [...Object.keys(patch.preconditions), ...patch.ops.map((op) => op.memoryId)];
  if (ids.some((id) => !UNIT_ID_PATTERN.test(id)) || patch.ops.length === 0) {
    return failed(
      'invalid_id',
      'a patch names units by UNIT:<uuid>',
      'list units with `cairn list`',
    );
  }
  const unguarded = patch.ops.find((op) => !(op.memoryId in patch.preconditions));
  if (unguarded) {
    return failed(
      'invalid_id',
      `${unguarded.memoryId} has no precondition in the patch`,
      'every unit a patch touches needs its content hash',
    );
  }
  return undefined;
}

function conflictOf(documents: ParsedDocument[], patch: UnitPatch) {
  for (const [memoryId, expected] of Object.entries(patch.preconditions)) {
    const unit = findUnit(documents, memoryId);
    const actual = unit ? unitContentHash(unit) : ABSENT_UNIT;
    if (actual !== expected) {
      const message =
        actual === ABSENT_UNIT
          ? `${memoryId} is gone since the patch was proposed`
          : `${memoryId} changed since the patch was proposed`;
      return { action: 'conflict' as const, memoryId, expected, actual, message };
    }
  }
  return undefined;
}

/** Applies the ops to each file's text in memory, bottom-up so line numbers stay right. */
async function editFiles(ctx: PatchContext, documents: ParsedDocument[], patch: UnitPatch) {
  const texts = new Map<string, string>();
  const read = async (path: string) =>
    texts.get(path) ?? (await readMemoryFileExact(ctx.rootDir, path).catch(missingAsUndefined));
  const stamp = ctx.now().toISOString();
  const edits = patch.ops
    .filter((op) => op.op !== 'add')
    .map((op) => ({ op, unit: findUnit(documents, op.memoryId) as LocatedUnit }))
    .sort((a, b) => b.unit.startLine - a.unit.startLine);
  for (const { op, unit } of edits) {
    const content = (await read(unit.path)) ?? '';
    if (op.op === 'remove') {
      const end = removalEnd(content.split('\n'), unit.endLine);
      texts.set(unit.path, spliceLines(content, unit.startLine, end, []));
      continue;
    }
    const updated = {
      ...unit,
      ...(op.op === 'set-review' ? { review: op.review } : {}),
      ...(op.op === 'replace-text' ? { text: op.text } : {}),
      updatedAt: stamp,
    };
    const block = wellFormedText(serializeUnitBlock(updated)).split('\n');
    texts.set(unit.path, spliceLines(content, unit.startLine, unit.endLine, block));
  }
  for (const op of patch.ops) {
    if (op.op !== 'add') continue;
    const path = dailyMemoryFileName(ctx.now(), ctx.settings.timezone);
    const { op: _kind, ...fields } = op;
    const block = wellFormedText(serializeUnit({ ...fields, createdAt: stamp, updatedAt: stamp }));
    texts.set(path, appendBlock(await read(path), block, path.slice(0, -3)));
  }
  return texts;
}

function afterHashes(documents: ParsedDocument[], patch: UnitPatch): Record<string, string> {
  const after: Record<string, string> = {};
  for (const op of patch.ops) {
    const unit = findUnit(documents, op.memoryId);
    after[op.memoryId] = unit ? unitContentHash(unit) : ABSENT_UNIT;
  }
  return after;
}

/** Checks the preconditions and applies the patch under the units lock (see UnitPatch). */
export async function applyUnitPatch(
  ctx: PatchContext,
  patch: UnitPatch,
): Promise<UnitPatchResult> {
  ctx.writer.assertWritable('apply a reviewed change');
  const bad = checkPatch(patch);
  if (bad) return bad;
  return ctx.locked(async () => {
    const documents = await ctx.scan();
    const conflict = conflictOf(documents, patch);
    if (conflict) return conflict;
    const before: Record<string, MemoryUnit | null> = {};
    for (const op of patch.ops) {
      const unit = findUnit(documents, op.memoryId);
      before[op.memoryId] = unit
        ? {
            memoryId: unit.memoryId,
            category: unit.category,
            review: unit.review,
            createdAt: unit.createdAt,
            updatedAt: unit.updatedAt,
            text: unit.text,
            ...(unit.source ? { source: unit.source } : {}),
          }
        : null;
    }
    const texts = await editFiles(ctx, documents, patch);
    for (const [path, text] of texts) await ctx.writer.writeFile(path, text);
    return {
      action: 'applied',
      before,
      after: afterHashes(await ctx.scan(), patch),
      paths: [...texts.keys()],
    };
  });
}

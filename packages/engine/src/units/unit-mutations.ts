/**
 * The unit mutations: add, replace, remove and review, each a function of
 * the store's state (unit-store.ts). Every one runs under one workspace lock
 * and rewrites the file atomically, so concurrent writers (threads or
 * processes) never lose each other's units; a refusal is decided before the
 * lock as well, so a refused call creates nothing. An id may be a unique
 * start of one (resolveUnitId); the result names the whole id.
 */
import {
  type CairnSettings,
  dailyMemoryFileName,
  idPrefixOf,
  type LocatedUnit,
  missingAsUndefined,
  type ParsedDocument,
  REVIEW_STATES,
  type ReviewState,
  randomUuid,
  readMemoryFileExact,
  serializeUnit,
  serializeUnitBlock,
  UNIT_ID_KIND,
  wellFormedText,
} from '@cairn/core';
import type { WorkspaceWriter } from '../store';
import type { DedupIndex } from './dedup-index';
import { copiesConflict, copyAt, findUnitCopies, resolveUnitId } from './unit-copies';
import { type AddUnitInput, validateAddInput, validateText } from './unit-input';
import { appendBlock, removalEnd, spliceLines } from './unit-lines';
import {
  type AddUnitResult,
  type FailedResult,
  failed,
  type RemoveUnitResult,
  type ReplaceUnitResult,
} from './unit-results';
import { findDuplicate } from './workspace-scan';

/** What every mutation needs of the store: built once by createUnitStore. */
export interface UnitStoreState {
  rootDir: string;
  settings: CairnSettings;
  writer: WorkspaceWriter;
  now: () => Date;
  duplicates: DedupIndex;
  /** The workspace's parsed documents, re-reading only what changed. */
  scan: () => Promise<ParsedDocument[]>;
  /** Runs a mutation under the workspace lock; I/O and lock failures become failed results. */
  locked: <T>(fn: () => Promise<T>) => Promise<T | FailedResult>;
}

function checkId(memoryId: unknown): FailedResult | undefined {
  if (typeof memoryId === 'string' && memoryId.startsWith('RAW:')) {
    return failed(
      'not_mutable',
      `${memoryId} is RAW markdown`,
      'edit the file by hand, or add a managed unit instead',
    );
  }
  if (typeof memoryId !== 'string' || !idPrefixOf(memoryId, UNIT_ID_KIND)) {
    return failed(
      'invalid_id',
      'memoryId must look like UNIT:<uuid> (or a unique start of one, such as UNIT:6c2f615d)',
      'find ids with memory_list or memory_search (`cairn list`, `cairn search`)',
    );
  }
  return undefined;
}

function notFound(memoryId: string) {
  return failed(
    'not_found',
    `${memoryId} does not exist`,
    'find ids with memory_list (`cairn list`)',
  );
}

/**
 * The unit a change applies to: its one copy, or the copy `at` names; a
 * failed result when it has none, or several and `at` names none.
 */
function theUnit(
  documents: ParsedDocument[],
  memoryId: string,
  at?: string,
): LocatedUnit | FailedResult {
  const copies = findUnitCopies(documents, memoryId);
  if (copies.length === 0) return notFound(memoryId);
  if (at !== undefined) return copyAt(memoryId, copies, at);
  return copies.length === 1 ? copies[0]! : copiesConflict(memoryId, copies);
}

const isFailed = (value: LocatedUnit | FailedResult): value is FailedResult => 'action' in value;

/** A review state change: the unit keeps its id. */
export type ReviewUnitResult =
  | {
      action: 'reviewed';
      memoryId: string;
      path: string;
      review: ReviewState;
      previous: ReviewState;
    }
  | FailedResult;

/** Changes a unit's review state in place: same id, text and file; `updatedAt` moves. */
export async function setUnitReview(
  { rootDir, writer, now, scan, locked }: UnitStoreState,
  input: string,
  review: ReviewState,
): Promise<ReviewUnitResult> {
  writer.assertWritable('review a memory');
  const bad = checkId(input);
  if (bad) return bad;
  if (!REVIEW_STATES.includes(review)) {
    return failed(
      'invalid_review',
      `unknown review state ${JSON.stringify(String(review)).slice(0, 80)}`,
      `use one of ${REVIEW_STATES.join(', ')}`,
    );
  }
  const documents = await scan();
  const memoryId = resolveUnitId(documents, input);
  if (typeof memoryId !== 'string') return memoryId;
  const early = theUnit(documents, memoryId);
  if (isFailed(early)) return early;
  return locked(async () => {
    const unit = theUnit(await scan(), memoryId);
    if (isFailed(unit)) return unit;
    const updated = { ...unit, review, updatedAt: now().toISOString() };
    const content = await readMemoryFileExact(rootDir, unit.path);
    const block = wellFormedText(serializeUnitBlock(updated)).split('\n');
    await writer.writeFile(unit.path, spliceLines(content, unit.startLine, unit.endLine, block));
    return { action: 'reviewed', memoryId, path: unit.path, review, previous: unit.review };
  });
}

export async function addUnit(state: UnitStoreState, input: AddUnitInput): Promise<AddUnitResult> {
  const { rootDir, settings, writer, now, scan, locked, duplicates } = state;
  writer.assertWritable('add a memory');
  const valid = validateAddInput(input, settings.limits.maxUnitChars);
  if ('action' in valid) return valid;
  // Refusals are decided before the lock too, so a refused call creates nothing (not even the lock).
  const early = findDuplicate(await scan(), valid.text, undefined, duplicates);
  if (early) return early;
  return locked(async () => {
    const documents = await scan();
    const duplicate = findDuplicate(documents, valid.text, undefined, duplicates);
    if (duplicate) return duplicate;
    const instant = now();
    const path = dailyMemoryFileName(instant, settings.timezone);
    const stamp = instant.toISOString();
    const memoryId = `UNIT:${randomUuid()}`;
    const block = wellFormedText(
      serializeUnit({ memoryId, ...valid, createdAt: stamp, updatedAt: stamp }),
    );
    // Exact read and write: the user's bytes around the new block stay as they were.
    const current = await readMemoryFileExact(rootDir, path).catch(missingAsUndefined);
    await writer.writeFile(path, appendBlock(current, block, path.slice(0, -3)));
    return {
      action: 'created',
      memoryId,
      kind: 'UNIT',
      path,
      category: valid.category,
      text: valid.text,
    };
  });
}

export async function replaceUnit(
  state: UnitStoreState,
  input: string,
  text: string,
): Promise<ReplaceUnitResult> {
  const { rootDir, settings, writer, now, scan, locked, duplicates } = state;
  writer.assertWritable('replace a memory');
  const bad = checkId(input);
  if (bad) return bad;
  const valid = validateText(text, settings.limits.maxUnitChars);
  if (typeof valid !== 'string') return valid;
  const memoryId = resolveUnitId(await scan(), input);
  if (typeof memoryId !== 'string') return memoryId;
  const refusal = (documents: ParsedDocument[]) => {
    const unit = theUnit(documents, memoryId);
    return isFailed(unit) ? unit : findDuplicate(documents, valid, memoryId, duplicates);
  };
  const early = refusal(await scan());
  if (early) return early;
  return locked(async () => {
    const documents = await scan();
    const refused = refusal(documents);
    if (refused) return refused;
    const unit = theUnit(documents, memoryId) as LocatedUnit;
    const updated = { ...unit, text: valid, updatedAt: now().toISOString() };
    const content = await readMemoryFileExact(rootDir, unit.path);
    const block = wellFormedText(serializeUnitBlock(updated)).split('\n');
    await writer.writeFile(unit.path, spliceLines(content, unit.startLine, unit.endLine, block));
    const { path, category, createdAt, updatedAt } = updated;
    return {
      action: 'replaced',
      memoryId,
      kind: 'UNIT',
      path,
      category,
      text: valid,
      createdAt,
      updatedAt,
    };
  });
}

/** Removes the unit; `at` (`<file>:<line>`) names one copy of an id that is in several places. */
export async function removeUnit(
  state: UnitStoreState,
  input: string,
  at?: string,
): Promise<RemoveUnitResult> {
  const { rootDir, writer, scan, locked } = state;
  writer.assertWritable('remove a memory');
  const bad = checkId(input);
  if (bad) return bad;
  const documents = await scan();
  const memoryId = resolveUnitId(documents, input);
  if (typeof memoryId !== 'string') return memoryId;
  const early = theUnit(documents, memoryId, at);
  if (isFailed(early)) return early;
  return locked(async () => {
    const unit = theUnit(await scan(), memoryId, at);
    if (isFailed(unit)) return unit;
    const content = await readMemoryFileExact(rootDir, unit.path);
    const end = removalEnd(content.split('\n'), unit.endLine);
    await writer.writeFile(unit.path, spliceLines(content, unit.startLine, end, []));
    return { action: 'removed', memoryId, kind: 'UNIT', path: unit.path };
  });
}

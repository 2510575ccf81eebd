import { join } from 'node:path';
import {
  CairnError,
  type CairnSettings,
  cairnStatePath,
  isUnsafePathError,
  type MemoryCategory,
  type ParsedDocument,
  type ReviewState,
  withFileLock,
} from '@cairn/core';
import type { WorkspaceWriter } from '../store';
import { DedupIndex } from './dedup-index';
import type { AddUnitInput } from './unit-input';
import {
  addUnit,
  removeUnit,
  replaceUnit,
  setUnitReview,
  type UnitStoreState,
} from './unit-mutations';
import { applyUnitPatch, type UnitPatch } from './unit-patch';
import { type FailedResult, failedFrom } from './unit-results';
import { type ParseCache, scanWorkspace } from './workspace-scan';
import { watchWorkspace } from './workspace-watch';

export type { ReviewUnitResult } from './unit-mutations';

export interface UnitStoreOptions {
  rootDir: string;
  settings: CairnSettings;
  /** Every unit write goes through it; a read-only backend refuses them with READ_ONLY. */
  writer: WorkspaceWriter;
  /** The clock; tests pin it. */
  now?: () => Date;
}

export interface ListUnitsFilter {
  category?: MemoryCategory;
  review?: ReviewState;
  /** ISO date or instant: created at or after. */
  since?: string;
  /** ISO date or instant: created before. */
  until?: string;
  /** Workspace-relative path or prefix. */
  path?: string;
}

/** Runs `fn` under the workspace lock; I/O and lock failures become failed results. */
async function underLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T | FailedResult> {
  try {
    return await withFileLock(lockPath, fn);
  } catch (error) {
    // A link under .cairn/ is refused as INVALID_PATH, not reported as a failed write.
    if (!CairnError.isInstance(error) || isUnsafePathError(error)) throw error;
    if (error.code === 'CONFLICT') {
      return failedFrom('conflict', error, 'another writer changed the file; try again');
    }
    return failedFrom('write_failed', error, 'check free disk space and write permission');
  }
}

/** Managed units in the daily files (see unit-mutations.ts for the writes). */
export function createUnitStore(options: UnitStoreOptions) {
  const { rootDir, settings, writer } = options;
  const lockPath = join(cairnStatePath(rootDir), 'locks', 'units.lock');
  // Kept for the life of the store: a long-lived engine (an in-process harness
  // plugin) parses only the files that changed since its last scan.
  const parsed: ParseCache = new Map();
  // What changed since the last scan, from the kernel and from this process's own writes.
  const watch = watchWorkspace(rootDir);
  writer.onWrite((path) => watch.note(path));
  const state: UnitStoreState = {
    rootDir,
    settings,
    writer,
    now: options.now ?? (() => new Date()),
    duplicates: new DedupIndex(),
    scan: () => scanWorkspace(rootDir, parsed, watch),
    locked: (fn) => underLock(lockPath, fn),
  };
  return {
    add: (input: AddUnitInput) => addUnit(state, input),
    replace: (memoryId: string, text: string) => replaceUnit(state, memoryId, text),
    /** Removes the unit; `at` (`<file>:<line>`) names one copy of an id that is in several places. */
    remove: (memoryId: string, at?: string) => removeUnit(state, memoryId, at),
    /** Changes a unit's review state in place: same id, text and file; `updatedAt` moves. */
    setReview: (memoryId: string, review: ReviewState) => setUnitReview(state, memoryId, review),
    /** A reviewed change on several units at once, under content-hash preconditions (unit-patch.ts). */
    patch: (patch: UnitPatch) => applyUnitPatch(state, patch),
    scan: (): Promise<ParsedDocument[]> => state.scan(),
    /** Stops the workspace watch (a long-lived host closing the project). */
    close: () => watch.close(),
  };
}

export type UnitStore = ReturnType<typeof createUnitStore>;

/** Tier 2 memory units: markdown files under `.cairn/memory/`, their store, queries, patches and watch. */
export { placeOf, removeCopyCommand } from './unit-copies';
export type { AddUnitInput } from './unit-input';
export {
  ABSENT_UNIT,
  type UnitPatch,
  type UnitPatchOp,
  type UnitPatchResult,
  unitContentHash,
} from './unit-patch';
export { createUnitLister, getMemory } from './unit-queries';
export {
  type AddUnitResult,
  type MemoryRecord,
  type RemoveUnitResult,
  type ReplaceUnitResult,
  UNIT_ERROR_CODES,
  type UnitErrorCode,
} from './unit-results';
export {
  createUnitStore,
  type ListUnitsFilter,
  type ReviewUnitResult,
  type UnitStore,
} from './unit-store';
export { type WorkspaceWatch, watchWorkspace } from './workspace-watch';

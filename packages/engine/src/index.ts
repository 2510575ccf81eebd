import pkg from '../package.json' with { type: 'json' };

export { registerBuiltins } from './builtins';
export type { DoctorReport, HeadView, MemoryApi, SearchRequest } from './memory-api';
export {
  type Cairn,
  type CairnStatus,
  type InitResult,
  type OpenCairnOptions,
  openCairn,
} from './open-cairn';
export { findProjectRoot } from './project-root';
export type { AddUnitInput } from './units/unit-input';
export type {
  AddUnitResult,
  DuplicateResult,
  FailedResult,
  MemoryRecord,
  RemoveUnitResult,
  ReplaceUnitResult,
  UnitErrorCode,
} from './units/unit-results';
export type { ListUnitsFilter } from './units/unit-store';

export const VERSION: string = pkg.version;

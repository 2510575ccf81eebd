import pkg from '../package.json' with { type: 'json' };

export { registerBuiltins } from './builtins';
export {
  type Cairn,
  type CairnStatus,
  type InitResult,
  type OpenCairnOptions,
  openCairn,
} from './open-cairn';
export { findProjectRoot } from './project-root';

export const VERSION: string = pkg.version;

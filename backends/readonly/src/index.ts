import pkg from '../package.json' with { type: 'json' };

export {
  createReadonlyBackend,
  type ReadonlyBackendOptions,
  readonlyCapabilities,
} from './readonly-backend';

export const VERSION: string = pkg.version;

import pkg from '../package.json' with { type: 'json' };

export type { RankedHit } from './hybrid-search';
export {
  createLancedbBackend,
  type LancedbBackend,
  lancedbCapabilities,
  lancedbIndex,
} from './lancedb-backend';
export { LancedbIndex } from './lancedb-index';
export { lancedbOptionTrust } from './lancedb-option-trust';
export {
  DEFAULT_MIN_SIMILARITY,
  DEFAULT_TABLE_NAME,
  DEFAULT_VECTOR_INDEX_THRESHOLD,
  databaseUri,
  isRemoteUri,
  LANCEDB_INDEX_DIR,
  type LancedbBackendOptions,
  type LancedbSearchMode,
  lancedbOptionsSchema,
  MIN_VECTOR_INDEX_THRESHOLD,
  resolveLancedbOptions,
} from './lancedb-options';
export {
  createLancedbRetrievalAdapter,
  type LancedbRetrievalAdapter,
  lancedbRetrievalAdapter,
  lancedbRetrievalCapabilities,
} from './lancedb-retrieval-adapter';
export {
  LANCEDB_INSTALL_COMMAND,
  type LancedbModuleLoader,
  type LancedbModules,
  loadLancedb,
} from './load-lancedb';
export type { LancedbRefreshStats } from './refresh-pool';

export const VERSION: string = pkg.version;

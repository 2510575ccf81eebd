import pkg from '../package.json' with { type: 'json' };

export {
  createFileBackend,
  type FileBackend,
  type FileBackendOptions,
  fileCapabilities,
} from './file-backend';
export {
  createFileRetrievalAdapter,
  fileRetrievalCapabilities,
  WORKSPACE_POOL_ID,
} from './file-retrieval-adapter';
export { boundSnippet, queryTerms, type ScanHit, scanMarkdown } from './keyword-scan';
export {
  openSearchIndex,
  POOL_INDEX_FILENAME,
  SEARCH_INDEX_FILENAME,
  type SearchIndex,
  type SearchIndexOptions,
  type SearchIndexRefreshStats,
} from './search-index';
export { closeSearchIndexes } from './search-index-cache';
export {
  isDamagedDatabase,
  loadSqlite,
  openSqlite,
  type SqliteDatabase,
  type SqliteOpenOptions,
  type SqliteStatement,
} from './sqlite-driver';

export const VERSION: string = pkg.version;

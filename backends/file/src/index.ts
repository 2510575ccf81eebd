import pkg from '../package.json' with { type: 'json' };

export { createFileBackend, type FileBackendOptions, fileCapabilities } from './file-backend';
export {
  createFileRetrievalAdapter,
  fileRetrievalCapabilities,
  WORKSPACE_POOL_ID,
} from './file-retrieval-adapter';
export { boundSnippet, queryTerms, type ScanHit, scanMarkdown } from './keyword-scan';

export const VERSION: string = pkg.version;

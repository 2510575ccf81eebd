import pkg from '../package.json' with { type: 'json' };

export {
  folderMarkdownFiles,
  type MarkdownFile,
  workspaceFiles,
} from './markdown-signature';
export {
  createQmdBackend,
  type QmdBackend,
  qmdCapabilities,
  qmdIndex,
} from './qmd-backend';
export {
  findBundledQmdEntry,
  findDevQmdCommand,
  findOnPath,
  QMD_INSTALL_COMMAND,
  QMD_PACKAGE,
  type QmdCommand,
  resolveQmdCommand,
} from './qmd-command';
export { parseQmdHits, type QmdHit } from './qmd-hits';
export { QMD_INDEX_NAME, QmdIndex } from './qmd-index';
export { qmdOptionTrust } from './qmd-option-trust';
export {
  DEFAULT_SEARCH_TIMEOUT_MS,
  DEFAULT_UPDATE_DEBOUNCE_MS,
  DEFAULT_UPDATE_TIMEOUT_MS,
  defaultCollectionName,
  QMD_INDEX_DIR,
  type QmdBackendOptions,
  qmdIndexDir,
  qmdOptionsSchema,
  resolveQmdOptions,
} from './qmd-options';
export {
  canonicalPaths,
  handleKey,
  normalizeQmdPath,
  parseQmdLocation,
  type QmdLocation,
} from './qmd-paths';
export {
  createQmdRetrievalAdapter,
  type QmdRetrievalAdapter,
  qmdRetrievalAdapter,
  qmdRetrievalCapabilities,
} from './qmd-retrieval-adapter';
export { type QmdFailureReason, qmdFailureReason, runQmd } from './qmd-runner';
export { fetchLimit, type QmdRefreshStats, QmdSearchIndex } from './qmd-search-index';

export const VERSION: string = pkg.version;

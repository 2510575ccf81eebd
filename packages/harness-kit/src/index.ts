export { GITIGNORE_COMMENT, planGitignoreEntries, withIgnoredPaths } from './gitignore-entries';
export {
  type ApplyOptions,
  applyPlan,
  formatJson,
  formatJsonLike,
  type PlannedFile,
  parseJsonFile,
  planJsonEdit,
  previewChange,
  readOptional,
} from './install-files';
export { type InstallLocation, installStateDir } from './install-ledger';
export { jsonLinesFromEnd, readFileTail } from './read-file-tail';

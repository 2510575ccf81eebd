/** Project storage every module builds on: state databases, the workspace writer and its lock, thread keys, `.cairn/` layout. */
export { ensureCairnGitignore } from './cairn-gitignore';
export { withMemoryFileLock } from './memory-lock';
export { assertProjectLayout, maintenanceDatabasePath } from './project-layout';
export {
  closeKeptReaders,
  type Database,
  keptReaders,
  migrate,
  openDatabase,
} from './state-databases';
export {
  defaultThreadKey,
  folderProjectId,
  gitBranch,
  gitDir,
  readGitFile,
  slugify,
  threadHeadFile,
} from './thread-key';
export { createWorkspaceWriter, type WorkspaceWriter } from './workspace-writer';

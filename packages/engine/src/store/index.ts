/** Project storage every module builds on: state databases, the workspace writer and its lock, thread keys, `.cairn/` layout. */
export { ensureCairnGitignore } from './cairn-gitignore';
export { closeKeptReaders, keptReaders } from './kept-readers';
export { withMemoryFileLock } from './memory-lock';
export { assertProjectLayout } from './project-layout';
export { type Database, migrate, openDatabase } from './sqlite';
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

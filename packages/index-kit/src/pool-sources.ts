import {
  isUnsafePathError,
  listMemoryFiles,
  memoryWorkspacePath,
  type PoolSource,
  type PoolTarget,
} from '@cairn/core';

export type { PoolSource, PoolTarget };

import { listMarkdownFiles, readFolderFile, readWorkspaceFile } from './index-sources';
import { WORKSPACE_POOL_ID } from './pool-definitions';

/**
 * The workspace files (`MEMORY.md`, daily files, `threads/*.md`…), by
 * core's name rules. A link under `.cairn/` throws INVALID_PATH rather
 * than listing as an empty workspace.
 */
export function workspacePoolSource(rootDir: string): PoolSource {
  return {
    key: WORKSPACE_POOL_ID,
    list: () =>
      listMemoryFiles(rootDir).catch((error: unknown) => {
        if (isUnsafePathError(error)) throw error;
        return [];
      }),
    read: (path) => readWorkspaceFile(rootDir, path),
  };
}

/** The workspace (`.cairn/memory/`) as the hot pool of a derived store. */
export function workspacePoolTarget(rootDir: string): PoolTarget {
  return {
    id: WORKSPACE_POOL_ID,
    tier: 'hot',
    base: memoryWorkspacePath(rootDir),
    source: workspacePoolSource(rootDir),
  };
}

/** Every `*.md` under a registered pool folder (hidden entries, links and temp files skipped). */
export function folderPoolSource(folder: string): PoolSource {
  return {
    key: folder,
    list: () => listMarkdownFiles(folder, { skipUnreadable: true }),
    read: (path) => readFolderFile(folder, path),
  };
}

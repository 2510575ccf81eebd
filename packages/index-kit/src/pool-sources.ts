import { listMemoryFiles, type MemoryTier, memoryWorkspacePath } from '@cairn/core';
import {
  listMarkdownFiles,
  readFolderFile,
  readWorkspaceFile,
  type SourceFile,
} from './index-sources';
import { WORKSPACE_POOL_ID } from './pool-definitions';

/**
 * Where the markdown of one pool comes from, for backends that index it
 * in another store (LanceDB, Qdrant): the workspace by core's
 * `listMemoryFiles`, a registered folder by the file index's rules.
 */
export interface PoolSource {
  /** `workspace`, or the absolute folder: a pool that points elsewhere is indexed again. */
  key: string;
  list(): Promise<SourceFile[]> | SourceFile[];
  /** The file's bytes, or undefined when it vanished or may not be read. */
  read(path: string): Promise<Buffer | undefined>;
}

/** The workspace files (`MEMORY.md`, daily files, `threads/*.md`…), by core's name rules. */
export function workspacePoolSource(rootDir: string): PoolSource {
  return {
    key: WORKSPACE_POOL_ID,
    list: () => listMemoryFiles(rootDir).catch(() => []),
    read: (path) => readWorkspaceFile(rootDir, path),
  };
}

/** One pool as a derived store (LanceDB, Qdrant) refreshes and searches it. */
export interface PoolTarget {
  id: string;
  tier: MemoryTier;
  agents?: string[];
  /** Absolute folder the hit paths are relative to. */
  base: string;
  source: PoolSource;
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

import { listMemoryFiles } from '@cairn/core';
import {
  folderPoolSource,
  MAX_FILES_PER_FOLDER,
  readWorkspaceFile,
  type SourceFile,
} from '@cairn/index-kit';

// Shared with the file index: a listed file, and the chunker (core's, marker lines and empty chunks dropped).
export { chunkFile as chunksOf, type SourceFile } from '@cairn/index-kit';

/** Where the markdown of one pool comes from. */
export interface MirrorSource {
  /** `workspace`, or the absolute folder of a registered pool: stored as `pool` on every entry. */
  key: string;
  list(): Promise<SourceFile[]>;
  /** The file's text, or undefined when it vanished or may not be read. */
  read(path: string): Promise<string | undefined>;
}

export const WORKSPACE_KEY = 'workspace';
/** A runaway pool folder cannot stall a sync. */
export const MAX_POOL_FILES = MAX_FILES_PER_FOLDER;

/** The workspace files (`MEMORY.md`, daily files, `threads/*.md`...), by core's own listing and path rules. */
export function workspaceSource(rootDir: string): MirrorSource {
  return {
    key: WORKSPACE_KEY,
    list: () => listMemoryFiles(rootDir).catch(() => []),
    read: async (path) => (await readWorkspaceFile(rootDir, path))?.toString('utf8'),
  };
}

/** Every `*.md` under a pool folder, by the file index's rules: hidden entries, links and temp files skipped. */
export function folderSource(folder: string): MirrorSource {
  const files = folderPoolSource(folder);
  return {
    key: folder,
    list: async () => files.list(),
    read: async (path) => (await files.read(path))?.toString('utf8'),
  };
}

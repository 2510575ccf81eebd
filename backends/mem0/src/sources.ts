import type { PoolSource } from '@cairn/core';
import {
  folderPoolSource,
  MAX_FILES_PER_FOLDER,
  type SourceFile,
  type SyncSource,
  workspacePoolSource,
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
  /** Task-history records: each file's header gives its chunks their record metadata. */
  records?: boolean;
}

/** The workspace's key, as index-kit's workspace pool source names it. */
export const WORKSPACE_KEY = 'workspace';
/** A runaway pool folder cannot stall a sync. */
export const MAX_POOL_FILES = MAX_FILES_PER_FOLDER;

/** A pool's source as the mirror reads it: the same listing, the bytes as text. */
export function mirrorSourceOf(source: PoolSource): MirrorSource {
  return {
    key: source.key,
    list: async () => source.list(),
    read: async (path) => (await source.read(path))?.toString('utf8'),
    ...(source.records ? { records: true } : {}),
  };
}

/** The workspace files (`MEMORY.md`, daily files, `threads/*.md`...), by core's own listing and path rules. */
export function workspaceSource(rootDir: string): MirrorSource {
  return mirrorSourceOf(workspacePoolSource(rootDir));
}

/** Every `*.md` under a pool folder, by the file index's rules: hidden entries, links and temp files skipped. */
export function folderSource(folder: string): MirrorSource {
  return mirrorSourceOf(folderPoolSource(folder));
}

/** A mirror source as index-kit's `syncPool` reads it: its key is the pool, its text the bytes. */
export function syncSourceOf(source: MirrorSource): SyncSource {
  return {
    pool: source.key,
    list: () => source.list(),
    read: async (path) => {
      const text = await source.read(path);
      return text === undefined ? undefined : Buffer.from(text, 'utf8');
    },
    ...(source.records ? { records: true } : {}),
  };
}

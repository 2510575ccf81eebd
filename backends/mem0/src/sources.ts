import { readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { readFolderFile, readWorkspaceFile, type SourceFile } from '@cairn/backend-file';
import { ATOMIC_TEMP_PREFIX, compareCodeUnits, listMemoryFiles } from '@cairn/core';

// Shared with the file index: a listed file, and the chunker (core's, marker lines and empty chunks dropped).
export { chunkFile as chunksOf, type SourceFile } from '@cairn/backend-file';

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
export const MAX_POOL_FILES = 5000;

/** The workspace files (`MEMORY.md`, daily files, `threads/*.md`...), by core's own listing and path rules. */
export function workspaceSource(rootDir: string): MirrorSource {
  return {
    key: WORKSPACE_KEY,
    list: () => listMemoryFiles(rootDir).catch(() => []),
    read: async (path) => (await readWorkspaceFile(rootDir, path))?.toString('utf8'),
  };
}

const skipped = (relative: string) =>
  relative.split(sep).some((part) => part.startsWith('.') || part.startsWith(ATOMIC_TEMP_PREFIX));

/** Every `*.md` under a pool folder; hidden entries and temp files are left out, links not followed. */
export function folderSource(folder: string): MirrorSource {
  return {
    key: folder,
    async list() {
      const names = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
      const candidates = names
        .filter((name) => name.endsWith('.md') && !skipped(name))
        .sort(compareCodeUnits)
        .slice(0, MAX_POOL_FILES);
      const files = await Promise.all(
        candidates.map(async (name) => {
          const info = await stat(join(folder, name)).catch(() => undefined);
          if (!info?.isFile()) return undefined;
          return { path: name.split(sep).join('/'), bytes: info.size, mtimeMs: info.mtimeMs };
        }),
      );
      return files.filter((file): file is SourceFile => file !== undefined);
    },
    read: async (path) => (await readFolderFile(folder, path))?.toString('utf8'),
  };
}

import { join } from 'node:path';
import {
  assertNoLinks,
  CAIRN_DIR,
  CAIRN_INDEX_DIR,
  CAIRN_STATE_DIR,
  cairnStatePath,
  isAllowedWorkspaceFile,
  listCairnFolder,
  MEMORY_LONG_TERM_FILENAME,
  MEMORY_THREADS_DIR,
  MEMORY_WORKSPACE_PATH,
  PROJECT_CONFIG_FILE,
  unsafeKindOf,
  unsafePathError,
} from '@cairn/core';

const STATE = `${CAIRN_DIR}/${CAIRN_STATE_DIR}`;
const INDEX = `${CAIRN_DIR}/${CAIRN_INDEX_DIR}`;

/** The folders every lifecycle event may reach, from `.cairn` down (the memory folders are listed below). */
const FOLDERS = [STATE, INDEX];

/**
 * The databases, by name: importing their modules would load SQLite code
 * into the search bundle (project-layout.test.ts checks the names).
 */
export const LAYOUT_DATABASES = [
  `${STATE}/lineage.db`,
  `${STATE}/heads.db`,
  `${STATE}/history.db`,
  `${INDEX}/search.sqlite`,
];

export const MAINTENANCE_DB_FILENAME = 'maintenance.db';

/**
 * `<root>/.cairn/state/maintenance.db` (anchors/ opens it, maintenance/
 * fills it). Here with the layout: a pack stats it at every prompt
 * (packs/recall-planes.ts), and knowing where it is needs no SQLite.
 */
export function maintenanceDatabasePath(rootDir: string): string {
  return join(cairnStatePath(rootDir), MAINTENANCE_DB_FILENAME);
}

/** The files every event may open: config, the head, the databases, the search index. */
const FILES = [
  `${CAIRN_DIR}/${PROJECT_CONFIG_FILE}`,
  `${MEMORY_WORKSPACE_PATH}/${MEMORY_LONG_TERM_FILENAME}`,
  ...LAYOUT_DATABASES,
];

/** A link or a FIFO, socket or device with a workspace file's name in a memory folder. */
function assertWorkspaceEntries(
  rootDir: string,
  relDir: string,
  prefix: string,
  folders: Set<string>,
) {
  for (const entry of listCairnFolder(rootDir, relDir, folders)) {
    const kind = unsafeKindOf(entry);
    if (!kind || !isAllowedWorkspaceFile(`${prefix}${entry.name}`)) continue;
    throw unsafePathError(
      join(rootDir, relDir, entry.name),
      kind === 'symlink' ? 'symlink' : 'not_file',
    );
  }
}

export interface ProjectLayoutOptions {
  /**
   * Also list the memory folders for a link at a memory file's name (a
   * readdir each, no stat per file). Default true; a lifecycle event
   * passes false: every event that reads memory lists it anyway and is
   * refused there, and the hook path stays at a few lstat calls.
   */
  memoryFiles?: boolean;
}

/**
 * Refuses (INVALID_PATH) a project whose `.cairn/` has a link, or a FIFO
 * or device, at a place Cairn reaches on every command, MCP tool and
 * lifecycle event: `.cairn`, `memory`, `threads`, `state`, `index`,
 * `config.json`, the databases and every memory file (`MEMORY.md`, daily
 * files, thread heads). A hook then injects nothing at all, and a command
 * fails, rather than working around the link. About a dozen lstat calls,
 * plus a readdir of the memory folders unless `memoryFiles` is false; a
 * link anywhere else under `.cairn/` is refused when a read or write
 * reaches it, and `cairn doctor` lists them all.
 */
export function assertProjectLayout(rootDir: string, options: ProjectLayoutOptions = {}): void {
  const folders = new Set<string>();
  for (const relPath of FOLDERS) assertNoLinks(rootDir, relPath, folders);
  for (const relPath of FILES) {
    const info = assertNoLinks(rootDir, relPath, folders);
    if (info && unsafeKindOf(info)) throw unsafePathError(join(rootDir, relPath), 'not_file');
  }
  const threads = `${MEMORY_WORKSPACE_PATH}/${MEMORY_THREADS_DIR}`;
  if (options.memoryFiles === false) {
    // The folders themselves are still checked: a linked memory or threads folder fails here.
    assertNoLinks(rootDir, threads, folders);
    return;
  }
  assertWorkspaceEntries(rootDir, MEMORY_WORKSPACE_PATH, '', folders);
  assertWorkspaceEntries(rootDir, threads, `${MEMORY_THREADS_DIR}/`, folders);
}

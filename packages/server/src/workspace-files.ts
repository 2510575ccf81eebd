import { join } from 'node:path';
import {
  CairnError,
  cairnStatePath,
  listMemoryFiles,
  MEMORY_LONG_TERM_FILENAME,
  readMemoryFileExact,
  sha256Hex,
  validateWorkspacePath,
  withFileLock,
} from '@cairn/core';
import type { Cairn } from '@cairn/engine';
import { checkUserEdit, managedRegions } from './managed-regions';

/** The layered files a person edits (seed 000 §3.6); thread heads, insights and the audit are rendered by Cairn. */
const USER_EDITABLE = /^(MEMORY\.md|DREAMS\.md|\d{4}-\d{2}-\d{2}\.md)$/;

export interface WorkspaceFileView {
  path: string;
  content: string;
  /** sha256 of the content: the precondition a save sends back. */
  hash: string;
  /** False for files Cairn renders, and for every file of a read-only backend. */
  editable: boolean;
  /** How many regions between cairn markers the file holds (kept as they are by an edit). */
  managedRegions: number;
}

export async function listWorkspaceFiles(cairn: Cairn) {
  const files = await listMemoryFiles(cairn.rootDir);
  const writable = cairn.backend.capabilities.writable;
  return files.map((file) => ({ ...file, editable: writable && USER_EDITABLE.test(file.path) }));
}

/** One workspace file, by a path the core validator accepts (INVALID_PATH otherwise). */
export async function readWorkspaceFile(cairn: Cairn, path: unknown): Promise<WorkspaceFileView> {
  const valid = validateWorkspacePath(path);
  const content = await readMemoryFileExact(cairn.rootDir, valid);
  return {
    path: valid,
    content,
    hash: sha256Hex(content),
    editable: cairn.backend.capabilities.writable && USER_EDITABLE.test(valid),
    managedRegions: managedRegions(content, valid).length,
  };
}

/** The locks the CLI's writers take: units (every daily-file write) and MEMORY.md (head renders). */
const lockPath = (cairn: Cairn, name: string) => join(cairnStatePath(cairn.rootDir), 'locks', name);

/**
 * Saves a person's edit of a workspace file through the engine's writer:
 * refused with READ_ONLY on a read-only backend, INVALID_INPUT for a file
 * Cairn renders or an edit that touches a managed region, CONFLICT when the
 * file changed since it was read (`baseHash`). Bytes the user did not
 * change are written back exactly, invalid UTF-8 included.
 */
export async function saveWorkspaceFile(
  cairn: Cairn,
  input: { path: string; content: string; baseHash: string },
): Promise<WorkspaceFileView> {
  const path = validateWorkspacePath(input.path);
  cairn.writer.assertWritable(`save ${path}`);
  if (!USER_EDITABLE.test(path)) {
    throw new CairnError('INVALID_INPUT', `${path} is rendered by Cairn, not edited by hand`, {
      hint: 'edit MEMORY.md, DREAMS.md or a daily file; nothing was written',
      details: { path },
    });
  }
  const save = async () => {
    const current = await readMemoryFileExact(cairn.rootDir, path);
    if (sha256Hex(current) !== input.baseHash) {
      throw new CairnError('CONFLICT', `${path} changed since it was opened`, {
        hint: 'reload the file, apply your edit again and save; nothing was written',
        details: { path },
      });
    }
    checkUserEdit(path, current, input.content);
    await cairn.writer.writeFile(path, input.content);
  };
  await withFileLock(lockPath(cairn, 'units.lock'), () =>
    path === MEMORY_LONG_TERM_FILENAME
      ? withFileLock(lockPath(cairn, 'memory-md.lock'), save)
      : save(),
  );
  return readWorkspaceFile(cairn, path);
}

import { type Dirent, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { ATOMIC_TEMP_PREFIX } from '../atomic-write';
import { CairnError } from '../errors';
import { refusalReason } from '../fs-errors';
import { createCairnFile, makeCairnFolder, writeCairnFile } from './cairn-file-writes';
import {
  type CairnReadOptions,
  listCairnFolder,
  readCairnFile,
  statCairnFile,
} from './cairn-files';
import { decodeExactText, encodeExactText } from './exact-text';
import { isUnsafePathError, unsafePathError } from './link-checks';
import {
  compareCodeUnits,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  isAllowedWorkspaceFile,
  MEMORY_DREAMS_FILENAME,
  MEMORY_FIXES_DIR,
  MEMORY_LONG_TERM_FILENAME,
  MEMORY_THREADS_DIR,
  MEMORY_WORKSPACE_PATH,
  memoryWorkspacePath,
  validateWorkspacePath,
  workspaceFilePath,
} from './paths';

/** The MEMORY.md a new workspace starts with: an empty managed head and room for the user. */
export function getDefaultMemoryScaffold(): string {
  return [
    '# Project memory',
    '',
    HEAD_START_MARKER,
    HEAD_END_MARKER,
    '',
    '## Notes',
    '',
    'Durable notes for this project. Cairn only rewrites the managed head region above;',
    'everything else in this file is yours.',
    '',
  ].join('\n');
}

export function getDefaultDreamsScaffold(): string {
  return [
    '# Dreams',
    '',
    'Consolidation diary: proposed memory changes wait here for human review.',
    '',
  ].join('\n');
}

/**
 * Bootstraps the layered workspace: the folder, MEMORY.md with an empty
 * managed head, and DREAMS.md. Existing files are never touched (two
 * concurrent inits never clobber each other). Returns the
 * workspace-relative names it created. A link on the way is INVALID_PATH.
 */
export async function ensureMemoryWorkspace(rootDir: string): Promise<string[]> {
  const workspace = memoryWorkspacePath(rootDir);
  try {
    await makeCairnFolder(rootDir, MEMORY_WORKSPACE_PATH);
    const created: string[] = [];
    const scaffolds = [
      [MEMORY_LONG_TERM_FILENAME, getDefaultMemoryScaffold()],
      [MEMORY_DREAMS_FILENAME, getDefaultDreamsScaffold()],
    ] as const;
    for (const [name, content] of scaffolds) {
      if (await createCairnFile(rootDir, workspaceFilePath(name), content)) created.push(name);
    }
    return created;
  } catch (error) {
    if (isUnsafePathError(error)) throw error;
    throw new CairnError('WRITE_FAILED', `Cannot create the memory workspace at ${workspace}`, {
      cause: error,
      hint: 'check that the project folder is writable',
      details: { path: workspace },
    });
  }
}

export interface WorkspaceFileInfo {
  /** Workspace-relative, `/`-separated. */
  path: string;
  bytes: number;
  mtimeMs: number;
}

/**
 * One entry of a workspace folder as a listing gives it, or undefined when
 * a listing skips it (a temp file, a name the workspace does not hold, a
 * folder, gone since readdir). A link or a FIFO, socket or device with a
 * workspace name is refused: INVALID_PATH, never followed or opened.
 */
function listedEntry(dir: string, entry: Dirent, relPath: string): WorkspaceFileInfo | undefined {
  if (entry.name.startsWith(ATOMIC_TEMP_PREFIX) || !isAllowedWorkspaceFile(relPath))
    return undefined;
  if (entry.isDirectory()) return undefined;
  const path = join(dir, entry.name);
  if (entry.isSymbolicLink()) throw unsafePathError(path, 'symlink');
  if (!entry.isFile()) throw unsafePathError(path, 'not_file');
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (!stat.isFile()) throw unsafePathError(path, stat.isSymbolicLink() ? 'symlink' : 'not_file');
  return { path: relPath, bytes: stat.size, mtimeMs: stat.mtimeMs };
}

/**
 * `listMemoryFiles` without awaiting: a search refreshes first, and
 * awaiting one lstat per file costs more than the query. A year of daily
 * files is a few hundred lstat calls, about 1 ms in a loop. `folders`
 * receives the folders found real, for reads in the same operation.
 */
export function listMemoryFilesSync(
  rootDir: string,
  folders: Set<string> = new Set(),
): WorkspaceFileInfo[] {
  const workspace = memoryWorkspacePath(rootDir);
  const files: WorkspaceFileInfo[] = [];
  let threads: Dirent | undefined;
  for (const entry of listCairnFolder(rootDir, MEMORY_WORKSPACE_PATH, folders)) {
    if (entry.name === MEMORY_THREADS_DIR) threads = entry;
    const file = listedEntry(workspace, entry, entry.name);
    if (file) files.push(file);
  }
  if (threads) {
    const dir = join(workspace, MEMORY_THREADS_DIR);
    const relDir = `${MEMORY_WORKSPACE_PATH}/${MEMORY_THREADS_DIR}`;
    for (const entry of listCairnFolder(rootDir, relDir, folders)) {
      const file = listedEntry(dir, entry, `${MEMORY_THREADS_DIR}/${entry.name}`);
      if (file) files.push(file);
    }
  }
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/**
 * Lists the workspace files that exist, sorted by path. Temp files,
 * folders and names outside the allowed set are skipped; a link (at
 * `.cairn`, `.cairn/memory`, `threads` or a workspace file) or a
 * non-regular file with a workspace name throws INVALID_PATH.
 */
export async function listMemoryFiles(rootDir: string): Promise<WorkspaceFileInfo[]> {
  return listMemoryFilesSync(rootDir);
}

/**
 * The shared fix pattern files (`fixes/<author>.md`), sorted by path: an
 * exchange format between clones (docs/TEAMS.md), so not among the files
 * `listMemoryFiles` gives to the unit scan and the search index. A link
 * (at the folder or a file) throws INVALID_PATH, as for every listing.
 */
export async function listSharedFixesFiles(rootDir: string): Promise<WorkspaceFileInfo[]> {
  const dir = join(memoryWorkspacePath(rootDir), MEMORY_FIXES_DIR);
  const files: WorkspaceFileInfo[] = [];
  for (const entry of listCairnFolder(rootDir, `${MEMORY_WORKSPACE_PATH}/${MEMORY_FIXES_DIR}`)) {
    const file = listedEntry(dir, entry, `${MEMORY_FIXES_DIR}/${entry.name}`);
    if (file) files.push(file);
  }
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/** Reads a validated workspace file. Missing files throw NOT_FOUND; a link INVALID_PATH. */
export async function readMemoryFile(
  rootDir: string,
  relPath: unknown,
  options?: CairnReadOptions,
): Promise<string> {
  return (await readWorkspaceBytes(rootDir, relPath, options)).toString('utf8');
}

/**
 * For `.catch` after a read: a file that does not exist reads as undefined;
 * one that exists but cannot be read rethrows, so a writer never replaces
 * a file it could not read.
 */
export function missingAsUndefined(error: unknown): undefined {
  if (CairnError.isInstance(error) && error.code === 'NOT_FOUND') return undefined;
  throw error;
}

/**
 * Reads a workspace file for a partial rewrite: bytes that are not valid
 * UTF-8 are kept as escapes that `writeMemoryFileExact` writes back as
 * the same bytes (see exact-text.ts). Use it, not `readMemoryFile`, when
 * the text goes back to disk.
 */
export async function readMemoryFileExact(rootDir: string, relPath: unknown): Promise<string> {
  return decodeExactText(await readWorkspaceBytes(rootDir, relPath));
}

async function readWorkspaceBytes(
  rootDir: string,
  relPath: unknown,
  options?: CairnReadOptions,
): Promise<Buffer> {
  const valid = validateWorkspacePath(relPath);
  let bytes: Buffer | undefined;
  try {
    bytes = await readCairnFile(rootDir, workspaceFilePath(valid), options);
  } catch (error) {
    if (CairnError.isInstance(error)) throw error;
    throw new CairnError('READ_FAILED', `Cannot read .cairn/memory/${valid}`, {
      cause: error,
      hint: 'check file permissions',
      details: { path: valid },
    });
  }
  if (bytes) return bytes;
  throw new CairnError('NOT_FOUND', `Cannot read .cairn/memory/${valid}: no such file`, {
    hint: 'list the files with `cairn status`',
    details: { path: valid },
  });
}

/** Writes a validated workspace file atomically, creating folders as needed. */
export async function writeMemoryFile(
  rootDir: string,
  relPath: unknown,
  content: unknown,
): Promise<void> {
  if (typeof content !== 'string') {
    throw new CairnError('INVALID_INPUT', 'Workspace file content must be a string', {
      hint: 'pass the file text as a string; nothing was written',
    });
  }
  await writeWorkspaceBytes(rootDir, relPath, content);
}

/**
 * Writes text read with `readMemoryFileExact` (and edited) back, with the
 * user's non-UTF-8 bytes as they were. Text Cairn adds must go through
 * `wellFormedText` first.
 */
export async function writeMemoryFileExact(
  rootDir: string,
  relPath: unknown,
  content: string,
): Promise<void> {
  await writeWorkspaceBytes(rootDir, relPath, encodeExactText(content));
}

async function writeWorkspaceBytes(
  rootDir: string,
  relPath: unknown,
  content: string | Uint8Array,
): Promise<void> {
  const valid = validateWorkspacePath(relPath);
  try {
    await writeCairnFile(rootDir, workspaceFilePath(valid), content);
  } catch (error) {
    if (isUnsafePathError(error)) throw error;
    const reason = refusalReason(error);
    const why = reason ? `: ${reason}` : '';
    throw new CairnError('WRITE_FAILED', `Cannot write .cairn/memory/${valid}${why}`, {
      cause: error,
      hint: 'check free disk space and write permission on .cairn/memory/',
      details: { path: valid },
    });
  }
}

/** Size and mtime of a workspace file, or undefined when it does not exist. A link is INVALID_PATH. */
export async function statMemoryFile(
  rootDir: string,
  relPath: unknown,
): Promise<{ bytes: number; mtimeMs: number } | undefined> {
  const info = statCairnFile(rootDir, workspaceFilePath(validateWorkspacePath(relPath)));
  return info ? { bytes: info.size, mtimeMs: info.mtimeMs } : undefined;
}

/**
 * Validates `relPath` and returns its absolute path, after checking with
 * lstat that no component from the project root down (`.cairn`,
 * `.cairn/memory`, `threads`, the file) is a link, and that the file, when
 * it exists, is a regular file. Links are refused wherever they lead
 * (INVALID_PATH, reason `symlink`). Read and write through
 * `readMemoryFile` and `writeMemoryFile`, which also open with O_NOFOLLOW.
 */
export async function resolveWorkspaceFile(rootDir: string, relPath: unknown): Promise<string> {
  const valid = validateWorkspacePath(relPath);
  statCairnFile(rootDir, workspaceFilePath(valid));
  return join(rootDir, workspaceFilePath(valid));
}

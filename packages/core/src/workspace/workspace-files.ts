import { promises as fsp, lstatSync } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { join } from 'node:path';
import { ATOMIC_TEMP_PREFIX, writeFileAtomic } from '../atomic-write';
import { CairnError } from '../errors';
import { refusalReason } from '../fs-errors';
import { compareCodeUnits } from './dates';
import { decodeExactText, encodeExactText } from './exact-text';
import {
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  MEMORY_DREAMS_FILENAME,
  MEMORY_LONG_TERM_FILENAME,
  MEMORY_THREADS_DIR,
  memoryWorkspacePath,
} from './paths';
import { makeDirectory } from './state-paths';
import { isAllowedWorkspaceFile, resolveWorkspaceFile } from './validate-path';

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

async function createIfMissing(path: string, content: string): Promise<boolean> {
  try {
    // `wx` fails if the file exists, so two concurrent inits never clobber each other.
    await fsp.writeFile(path, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Bootstraps the layered workspace: the folder, MEMORY.md with an empty
 * managed head, and DREAMS.md. Existing files are never touched. Returns the
 * workspace-relative names it created.
 */
export async function ensureMemoryWorkspace(rootDir: string): Promise<string[]> {
  const workspace = memoryWorkspacePath(rootDir);
  try {
    await makeDirectory(workspace);
    const created: string[] = [];
    if (
      await createIfMissing(join(workspace, MEMORY_LONG_TERM_FILENAME), getDefaultMemoryScaffold())
    ) {
      created.push(MEMORY_LONG_TERM_FILENAME);
    }
    if (
      await createIfMissing(join(workspace, MEMORY_DREAMS_FILENAME), getDefaultDreamsScaffold())
    ) {
      created.push(MEMORY_DREAMS_FILENAME);
    }
    return created;
  } catch (error) {
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

async function listDir(dir: string, prefix: string): Promise<WorkspaceFileInfo[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  const candidates = entries.filter(
    (entry) =>
      entry.isFile() &&
      !entry.name.startsWith(ATOMIC_TEMP_PREFIX) &&
      isAllowedWorkspaceFile(`${prefix}${entry.name}`),
  );
  // Dirent types come from readdir without following links, so links are already out.
  // Synchronous on purpose: a year of daily files is a few hundred lstat calls,
  // about 1 ms in a loop against several through the thread pool.
  const files: WorkspaceFileInfo[] = [];
  for (const entry of candidates) {
    const stat = lstatSync(join(dir, entry.name), { throwIfNoEntry: false });
    // Gone since readdir (another writer's rename): not a file of the workspace now.
    if (stat)
      files.push({ path: `${prefix}${entry.name}`, bytes: stat.size, mtimeMs: stat.mtimeMs });
  }
  return files;
}

/** The threads folder, unless it is missing or a link (which could lead outside). */
async function threadsDir(workspace: string): Promise<string | undefined> {
  const dir = join(workspace, MEMORY_THREADS_DIR);
  const info = await fsp.lstat(dir).catch(() => undefined);
  return info?.isDirectory() ? dir : undefined;
}

/**
 * Lists the workspace files that exist, sorted by path. Links, folders and
 * names outside the allowed set are skipped.
 */
export async function listMemoryFiles(rootDir: string): Promise<WorkspaceFileInfo[]> {
  const workspace = memoryWorkspacePath(rootDir);
  const threads = await threadsDir(workspace);
  const [top, threaded] = await Promise.all([
    listDir(workspace, ''),
    threads ? listDir(threads, `${MEMORY_THREADS_DIR}/`) : [],
  ]);
  return [...top, ...threaded].sort((a, b) => compareCodeUnits(a.path, b.path));
}

/** Reads a validated workspace file. Missing files throw NOT_FOUND. */
export async function readMemoryFile(rootDir: string, relPath: unknown): Promise<string> {
  return (await readWorkspaceBytes(rootDir, relPath)).toString('utf8');
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

async function readWorkspaceBytes(rootDir: string, relPath: unknown): Promise<Buffer> {
  const path = await resolveWorkspaceFile(rootDir, relPath);
  try {
    return await fsp.readFile(path);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new CairnError(
      missing ? 'NOT_FOUND' : 'READ_FAILED',
      `Cannot read .cairn/memory/${String(relPath)}${missing ? ': no such file' : ''}`,
      {
        cause: error,
        hint: missing ? 'list the files with `cairn status`' : 'check file permissions',
        details: { path: relPath },
      },
    );
  }
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
  const path = await resolveWorkspaceFile(rootDir, relPath);
  try {
    await makeDirectory(join(path, '..'));
    await writeFileAtomic(path, content);
  } catch (error) {
    const reason = refusalReason(error);
    const why = reason ? `: ${reason}` : '';
    throw new CairnError('WRITE_FAILED', `Cannot write .cairn/memory/${String(relPath)}${why}`, {
      cause: error,
      hint: 'check free disk space and write permission on .cairn/memory/',
      details: { path: relPath },
    });
  }
}

/** Size and mtime of a workspace file, or undefined when it does not exist. */
export async function statMemoryFile(
  rootDir: string,
  relPath: unknown,
): Promise<{ bytes: number; mtimeMs: number } | undefined> {
  const path = await resolveWorkspaceFile(rootDir, relPath);
  const info = await fsp.stat(path).catch(() => undefined);
  return info ? { bytes: info.size, mtimeMs: info.mtimeMs } : undefined;
}

import { join } from 'node:path';
import { CairnError } from '../errors';
import { statCairnFile } from './cairn-files';
import {
  isCalendarDate,
  MEMORY_AUDIT_FILENAME,
  MEMORY_DREAMS_FILENAME,
  MEMORY_FIXES_DIR,
  MEMORY_INSIGHTS_FILENAME,
  MEMORY_LONG_TERM_FILENAME,
  MEMORY_THREADS_DIR,
  MEMORY_WORKSPACE_PATH,
} from './paths';

/** Why a workspace path was refused; carried in the error's `details.reason`. */
export type PathRejection =
  | 'empty'
  | 'nul_byte'
  | 'absolute'
  | 'traversal'
  | 'too_long'
  | 'not_allowed';

export const MAX_WORKSPACE_PATH_LENGTH = 160;

/** Thread keys: lowercase, digits, `.`, `_`, `-`; no leading dot. */
export const THREAD_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,119}$/;

/** The author of a shared fixes file (`fixes/<author>.md`): lowercase letters, digits, `.`, `_`, `-`. */
export const FIXES_AUTHOR_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const FIXED_FILES = new Set([
  MEMORY_LONG_TERM_FILENAME,
  MEMORY_DREAMS_FILENAME,
  MEMORY_INSIGHTS_FILENAME,
  MEMORY_AUDIT_FILENAME,
]);

const reasons: Record<PathRejection, string> = {
  empty: 'the path is empty',
  nul_byte: 'the path contains a NUL byte',
  absolute: 'absolute paths are not allowed; give a path relative to .cairn/memory/',
  traversal: '"." and ".." segments are not allowed',
  too_long: `the path is longer than ${MAX_WORKSPACE_PATH_LENGTH} characters`,
  not_allowed:
    'only MEMORY.md, DREAMS.md, YYYY-MM-DD.md, memory-insights.md, memory-audit.md, threads/<key>.md and fixes/<author>.md are workspace files',
};

function reject(path: string, reason: PathRejection): never {
  throw new CairnError(
    'INVALID_PATH',
    `Refused workspace path ${JSON.stringify(path)}: ${reasons[reason]}`,
    {
      hint: 'use a workspace-relative name such as MEMORY.md or 2026-01-31.md',
      details: { path, reason },
    },
  );
}

/** True for the names the layered workspace may hold (relative, `/`-separated). */
export function isAllowedWorkspaceFile(relPath: string): boolean {
  if (FIXED_FILES.has(relPath)) return true;
  if (relPath.endsWith('.md') && isCalendarDate(relPath.slice(0, -3))) return true;
  const [dir, name, ...rest] = relPath.split('/');
  if (!name || rest.length > 0 || !name.endsWith('.md')) return false;
  if (dir === MEMORY_FIXES_DIR) return FIXES_AUTHOR_PATTERN.test(name.slice(0, -3));
  return dir === MEMORY_THREADS_DIR && THREAD_KEY_PATTERN.test(name.slice(0, -3));
}

/**
 * Checks a workspace-relative path without touching the disk and returns it
 * unchanged. Throws INVALID_PATH with the reason.
 */
export function validateWorkspacePath(relPath: unknown): string {
  if (typeof relPath !== 'string' || relPath.length === 0) return reject(String(relPath), 'empty');
  if (relPath.includes('\0')) return reject(relPath, 'nul_byte');
  if (relPath.startsWith('/') || relPath.startsWith('\\') || /^[A-Za-z]:/.test(relPath)) {
    return reject(relPath, 'absolute');
  }
  if (relPath.split(/[\\/]/).some((part) => part === '..' || part === '.' || part === '')) {
    return reject(relPath, 'traversal');
  }
  if (relPath.length > MAX_WORKSPACE_PATH_LENGTH) return reject(relPath, 'too_long');
  if (!isAllowedWorkspaceFile(relPath)) return reject(relPath, 'not_allowed');
  return relPath;
}

/** The project-relative path of a workspace file: `.cairn/memory/<relPath>`. */
export function workspaceFilePath(relPath: string): string {
  return `${MEMORY_WORKSPACE_PATH}/${relPath}`;
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

import { promises as fsp } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { dirname, join, relative, sep } from 'node:path';
import { CairnError } from '../errors';
import { isCalendarDate } from './dates';
import {
  MEMORY_AUDIT_FILENAME,
  MEMORY_DREAMS_FILENAME,
  MEMORY_INSIGHTS_FILENAME,
  MEMORY_LONG_TERM_FILENAME,
  MEMORY_THREADS_DIR,
  memoryWorkspacePath,
} from './paths';

/** Why a workspace path was refused; carried in the error's `details.reason`. */
export type PathRejection =
  | 'empty'
  | 'nul_byte'
  | 'absolute'
  | 'traversal'
  | 'too_long'
  | 'not_allowed'
  | 'symlink_escape';

export const MAX_WORKSPACE_PATH_LENGTH = 160;

/** Thread keys: lowercase, digits, `.`, `_`, `-`; no leading dot. */
export const THREAD_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,119}$/;

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
    'only MEMORY.md, DREAMS.md, YYYY-MM-DD.md, memory-insights.md, memory-audit.md and threads/<key>.md are workspace files',
  symlink_escape: 'the path is a link that leads outside .cairn/memory/',
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
  if (dir !== MEMORY_THREADS_DIR || !name || rest.length > 0 || !name.endsWith('.md')) return false;
  return THREAD_KEY_PATTERN.test(name.slice(0, -3));
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

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

async function realpathOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await fsp.realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // A dangling link or a loop cannot be followed safely.
    if (code === 'ELOOP') return '';
    throw error;
  }
}

/**
 * Validates `relPath` and resolves it to an absolute path inside the
 * workspace, following links only when they stay inside it.
 */
export async function resolveWorkspaceFile(rootDir: string, relPath: unknown): Promise<string> {
  const valid = validateWorkspacePath(relPath);
  const workspace = memoryWorkspacePath(rootDir);
  const target = join(workspace, valid);
  const realWorkspace = (await realpathOrUndefined(workspace)) ?? workspace;
  const realTarget = await realpathOrUndefined(target);
  if (realTarget === '') return reject(valid, 'symlink_escape');
  if (realTarget !== undefined) {
    if (!isInside(realWorkspace, realTarget)) return reject(valid, 'symlink_escape');
    return realTarget;
  }
  const stat = await fsp.lstat(target).catch(() => undefined);
  // A link whose target is missing would create a file wherever it points.
  if (stat?.isSymbolicLink()) return reject(valid, 'symlink_escape');
  const realParent = await realpathOrUndefined(dirname(target));
  if (realParent && !isInside(realWorkspace, realParent)) return reject(valid, 'symlink_escape');
  return target;
}

import { join } from 'node:path';
import { CairnError } from '../errors';

/** Everything Cairn keeps in a project lives under this folder. */
export const CAIRN_DIR = '.cairn';
/** The layered memory workspace, relative to the project root. */
export const MEMORY_WORKSPACE_PATH = '.cairn/memory';
export const MEMORY_LONG_TERM_FILENAME = 'MEMORY.md';
export const MEMORY_DREAMS_FILENAME = 'DREAMS.md';
export const MEMORY_INSIGHTS_FILENAME = 'memory-insights.md';
export const MEMORY_AUDIT_FILENAME = 'memory-audit.md';
export const MEMORY_THREADS_DIR = 'threads';
/** Verified fix patterns each clone shares with the others: `fixes/<author>.md` (docs/TEAMS.md). */
export const MEMORY_FIXES_DIR = 'fixes';
/** Derived state (lineage database, logs) and derived indexes: never source of truth. */
export const CAIRN_STATE_DIR = 'state';
export const CAIRN_INDEX_DIR = 'index';

/** The managed head region of MEMORY.md; everything outside it belongs to the user. */
export const HEAD_START_MARKER = '<!-- cairn:head:start -->';
export const HEAD_END_MARKER = '<!-- cairn:head:end -->';
/** The managed region of a thread head file (`threads/<agent>.<thread>.md`); the rest is the user's. */
export const THREAD_HEAD_START_MARKER = '<!-- cairn:thread-head:start -->';
export const THREAD_HEAD_END_MARKER = '<!-- cairn:thread-head:end -->';

export function cairnPath(rootDir: string): string {
  return join(rootDir, CAIRN_DIR);
}

export function memoryWorkspacePath(rootDir: string): string {
  return join(rootDir, MEMORY_WORKSPACE_PATH);
}

export function memoryLongTermPath(rootDir: string): string {
  return join(memoryWorkspacePath(rootDir), MEMORY_LONG_TERM_FILENAME);
}

export function memoryDreamsPath(rootDir: string): string {
  return join(memoryWorkspacePath(rootDir), MEMORY_DREAMS_FILENAME);
}

export function memoryInsightsPath(rootDir: string): string {
  return join(memoryWorkspacePath(rootDir), MEMORY_INSIGHTS_FILENAME);
}

export function memoryAuditPath(rootDir: string): string {
  return join(memoryWorkspacePath(rootDir), MEMORY_AUDIT_FILENAME);
}

/** Workspace-relative name of the daily file for `date` in `timeZone`: `YYYY-MM-DD.md`. */
export function dailyMemoryFileName(date: Date, timeZone: string): string {
  return `${formatDateInTimeZone(date, timeZone)}.md`;
}

export function dailyMemoryPath(rootDir: string, date: Date, timeZone: string): string {
  return join(memoryWorkspacePath(rootDir), dailyMemoryFileName(date, timeZone));
}

/** Workspace-relative name of a thread head: `threads/<key>.md`. */
export function threadHeadFileName(threadKey: string): string {
  return `${MEMORY_THREADS_DIR}/${threadKey}.md`;
}

export function threadHeadPath(rootDir: string, threadKey: string): string {
  return join(memoryWorkspacePath(rootDir), MEMORY_THREADS_DIR, `${threadKey}.md`);
}

/** Workspace-relative name of the fix patterns a clone shares: `fixes/<author>.md`. */
export function sharedFixesFileName(author: string): string {
  return `${MEMORY_FIXES_DIR}/${author}.md`;
}

export function cairnStatePath(rootDir: string): string {
  return join(cairnPath(rootDir), CAIRN_STATE_DIR);
}

export function cairnIndexPath(rootDir: string): string {
  return join(cairnPath(rootDir), CAIRN_INDEX_DIR);
}

/*
 * The daily files' dates (`YYYY-MM-DD.md` in the configured time zone), and
 * the order workspace paths are listed in.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      ...(timeZone === 'local' ? {} : { timeZone }),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar date of `date` in `timeZone` (`local`: the system zone), as `YYYY-MM-DD`. */
export function formatDateInTimeZone(date: Date, timeZone: string): string {
  const parts = formatterFor(timeZone).formatToParts(date);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** True when `value` is a real calendar date written as `YYYY-MM-DD`. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/**
 * Orders strings by UTF-16 code units. Unlike `localeCompare` it needs no
 * ICU collator, whose start-up costs milliseconds in a short-lived process.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/*
 * Which workspace paths are allowed: the checks every read and write of a
 * workspace file runs before it touches the disk.
 */

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

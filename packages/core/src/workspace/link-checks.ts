import {
  type Dirent,
  promises as fsp,
  lstatSync,
  mkdirSync,
  readdirSync,
  type Stats,
} from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { dirname, isAbsolute, join, parse, sep } from 'node:path';
import { CairnError } from '../errors';
import { fsError } from '../fs-errors';
import { CAIRN_DIR } from './paths';

/**
 * Why a path under `.cairn/` was refused (the error's `details.reason`):
 * a symbolic link on the way or at the end, something other than a folder
 * where a folder is expected, or something other than a regular file (a
 * FIFO, socket or device) where a file is expected.
 */
export type UnsafePathReason = 'symlink' | 'not_directory' | 'not_file';

const UNSAFE_REASONS: ReadonlySet<unknown> = new Set(['symlink', 'not_directory', 'not_file']);

/** What to do about a link under `.cairn/`; doctor and every refusal say the same. */
export const LINK_FIX =
  'remove the link (move the real file into .cairn/ if you need it); Cairn never follows links under .cairn/';

const FIXES: Record<UnsafePathReason, string> = {
  symlink: LINK_FIX,
  not_directory: 'move it aside: Cairn expects a folder there and never writes elsewhere',
  not_file:
    'remove it: Cairn reads and writes only regular files under .cairn/ (no FIFOs, sockets or devices)',
};

const WHAT: Record<UnsafePathReason, string> = {
  symlink: 'is a symbolic link',
  not_directory: 'is not a folder',
  not_file: 'is not a regular file',
};

/** INVALID_PATH for a path under `.cairn/` that Cairn refuses to use. */
export function unsafePathError(path: string, reason: UnsafePathReason): CairnError {
  return new CairnError('INVALID_PATH', `Refusing to use ${path}: it ${WHAT[reason]}`, {
    hint: FIXES[reason],
    details: { path, reason },
  });
}

/** True for the refusal of a link, or of a non-folder or non-file, under `.cairn/`. */
export function isUnsafePathError(error: unknown): boolean {
  return (
    CairnError.isInstance(error) &&
    error.code === 'INVALID_PATH' &&
    UNSAFE_REASONS.has(error.details.reason)
  );
}

/**
 * Checks `relPath` under `root` one component at a time with lstat, from
 * the root down: a symbolic link anywhere, or a non-directory where a
 * folder is expected, throws INVALID_PATH. Missing components are fine
 * (they will be created as real folders). The root itself is the user's
 * choice and may be a link. Folders found in `realFolders` are taken as
 * checked; folders found real are added to it (use one set per operation,
 * never across operations: a folder can become a link between two).
 * Returns the lstat of the last component, or undefined when a component
 * is missing.
 */
export function assertNoLinks(
  root: string,
  relPath: string,
  realFolders?: Set<string>,
): Stats | undefined {
  const parts = relPath.split(/[\\/]+/).filter(Boolean);
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = join(current, part);
    const last = index === parts.length - 1;
    if (!last && realFolders?.has(current)) continue;
    const info = lstatSync(current, { throwIfNoEntry: false });
    if (!info) return undefined;
    if (info.isSymbolicLink()) throw unsafePathError(current, 'symlink');
    if (last) return info;
    if (!info.isDirectory()) throw unsafePathError(current, 'not_directory');
    realFolders?.add(current);
  }
  return undefined;
}

/** True when `relPath` under `root` is a folder reached without a link; false for anything else. */
export function isRealFolder(root: string, relPath: string): boolean {
  try {
    return assertNoLinks(root, relPath)?.isDirectory() === true;
  } catch {
    return false;
  }
}

/**
 * An absolute path split at its last `.cairn` component: the project root
 * above it, and the project-relative rest (`.cairn/...`). Undefined for a
 * path outside any `.cairn/`.
 */
export function splitCairnPath(path: string): { root: string; relPath: string } | undefined {
  if (!isAbsolute(path)) return undefined;
  const parts = path.split(sep);
  const at = parts.lastIndexOf(CAIRN_DIR);
  if (at <= 0) return undefined;
  return {
    root: parts.slice(0, at).join(sep) || parse(path).root,
    relPath: parts.slice(at).join(sep),
  };
}

/**
 * `assertNoLinks` for an absolute path inside a project's `.cairn/`: the
 * project root is the folder above the last `.cairn` component. A path
 * outside any `.cairn/` (a cache in a user folder) has only its last
 * component checked.
 */
export function assertNoCairnLinks(path: string, realFolders?: Set<string>): Stats | undefined {
  const split = splitCairnPath(path);
  if (split) return assertNoLinks(split.root, split.relPath, realFolders);
  return assertNoLinks(dirname(path), path.split(sep).at(-1) ?? '');
}

/**
 * For callers that write both under a project's `.cairn/` and in a
 * per-user folder (install records, locks): under `.cairn/`,
 * `assertNoCairnLinks`; elsewhere nothing (that folder is the caller's).
 */
export function assertNoLinksUnderCairn(path: string): void {
  const split = splitCairnPath(path);
  if (split) assertNoLinks(split.root, split.relPath);
}

/**
 * Checks a SQLite file and the siblings SQLite opens next to it (WAL,
 * shared memory, journal): no link from `.cairn` down, and none a FIFO,
 * socket or device. The folders are checked once for the four.
 */
export function assertSafeDatabasePath(path: string): void {
  const folders = new Set<string>();
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const info = assertNoCairnLinks(`${path}${suffix}`, folders);
    // A folder there fails SQLite's open on its own; a FIFO would block it.
    if (info && unsafeKindOf(info)) throw unsafePathError(`${path}${suffix}`, 'not_file');
  }
}

/** What an entry Cairn refuses is: a link, or something that is neither a file nor a folder. */
export type UnsafeEntryKind = 'symlink' | 'fifo' | 'socket' | 'device';

export interface UnsafeEntry {
  /** Absolute. */
  path: string;
  kind: UnsafeEntryKind;
}

/** The kind of a refused entry, or undefined for a regular file or a folder. */
export function unsafeKindOf(entry: Dirent | Stats): UnsafeEntryKind | undefined {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFIFO()) return 'fifo';
  if (entry.isSocket()) return 'socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'device';
  return undefined;
}

/** How far `unsafeEntriesBelow` looks: a LanceDB folder holds thousands of files. */
export interface WalkLimits {
  maxEntries?: number;
  maxDepth?: number;
}

/**
 * Every link, FIFO, socket or device below the folder `dir`, from
 * readdir's entry types (which never follow a link), so the walk never
 * leaves `dir`. Stops after `maxEntries` entries (20,000) or `maxDepth`
 * folders down (8). An unreadable folder is skipped.
 */
export function unsafeEntriesBelow(dir: string, limits: WalkLimits = {}): UnsafeEntry[] {
  const maxEntries = limits.maxEntries ?? 20_000;
  const maxDepth = limits.maxDepth ?? 8;
  const found: UnsafeEntry[] = [];
  let seen = 0;
  const walk = (folder: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > maxEntries) return;
      const path = join(folder, entry.name);
      const kind = unsafeKindOf(entry);
      if (kind) found.push({ path, kind });
      else if (entry.isDirectory() && depth < maxDepth) walk(path, depth + 1);
    }
  };
  walk(dir, 1);
  return found;
}

/**
 * For a store Cairn keeps in a folder under `.cairn/` that another
 * library or program opens (LanceDB, Mem0, qmd): no link on the way to
 * the folder and none below it, since that code follows links. Throws
 * INVALID_PATH naming the first one. A folder outside any `.cairn/` is
 * the user's choice and is not walked.
 */
export function assertSafeStoreFolder(dir: string): void {
  if (!splitCairnPath(dir)) return;
  const info = assertNoCairnLinks(dir);
  if (!info) return;
  if (!info.isDirectory()) throw unsafePathError(dir, 'not_directory');
  const [first] = unsafeEntriesBelow(dir);
  if (first) throw unsafePathError(first.path, first.kind === 'symlink' ? 'symlink' : 'not_file');
}

/*
 * Folders under `.cairn/`, created one at a time and never through a link:
 * the same checks before and after each creation.
 */

/** A folder that cannot be created (refused, or a parent like `/proc/self` that takes none). */
function mkdirError(error: unknown, path: string): unknown {
  const typed = fsError(error, { op: 'write', path });
  if (typed !== error) return typed;
  return new CairnError('WRITE_FAILED', `Cannot create the folder ${path}`, {
    cause: error,
    hint: 'check that the project folder exists and is a writable folder on a normal file system',
    details: { path, errno: (error as NodeJS.ErrnoException).code },
  });
}

/**
 * Creates `dir` and its missing parents, one `mkdir` at a time. Unlike
 * `mkdir({ recursive: true })`, it cannot loop: Node's recursive mkdir
 * spins forever under `/proc/self`, where a folder exists but refuses
 * children with ENOENT. Under a project's `.cairn/` a link on the way is
 * refused (INVALID_PATH) before and after: nothing is created through one.
 */
export function makeDirectorySync(dir: string): void {
  assertNoLinksUnderCairn(dir);
  const missing: string[] = [];
  let current = dir;
  while (!lstatSync(current, { throwIfNoEntry: false })) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw mkdirError(error, path);
    }
  }
  assertNoLinksUnderCairn(dir);
}

/** The async form of `makeDirectorySync`. */
export async function makeDirectory(dir: string): Promise<void> {
  assertNoLinksUnderCairn(dir);
  const missing: string[] = [];
  let current = dir;
  while (!(await fsp.lstat(current).catch(() => undefined))) {
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing.reverse()) {
    await fsp.mkdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw mkdirError(error, path);
    });
  }
  assertNoLinksUnderCairn(dir);
}

/**
 * Prepares the folder of a file under `.cairn/` (state, index): refuses
 * links on the way, then creates the missing folders.
 */
export function prepareStateDirectory(filePath: string): void {
  assertNoCairnLinks(filePath);
  makeDirectorySync(dirname(filePath));
  // A link created between the check and the mkdir is caught here.
  assertNoCairnLinks(filePath);
}

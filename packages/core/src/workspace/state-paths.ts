import {
  closeSync,
  constants,
  promises as fsp,
  lstatSync,
  mkdirSync,
  openSync,
  writeSync,
} from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { dirname, isAbsolute, join, parse, relative, sep } from 'node:path';
import { CairnError } from '../errors';
import { fsError } from '../fs-errors';
import { CAIRN_DIR } from './paths';

const LINK_HINT =
  'remove the link (and move the real file back if you need it); Cairn never follows links under .cairn/state or .cairn/index';

function linkError(path: string, reason: 'symlink' | 'not_directory' | 'not_file'): CairnError {
  const what =
    reason === 'symlink'
      ? 'is a symbolic link'
      : reason === 'not_directory'
        ? 'is not a directory'
        : 'is not a regular file';
  return new CairnError('INVALID_PATH', `Refusing to use ${path}: it ${what}`, {
    hint: LINK_HINT,
    details: { path, reason },
  });
}

/**
 * Checks `relPath` under `root` one component at a time with lstat, from
 * the root down: a symbolic link anywhere, or a non-directory where a
 * folder is expected, throws INVALID_PATH. Missing components are fine
 * (they will be created as real folders). The root itself is the user's
 * choice and may be a link. Folders found in `realFolders` are taken as
 * checked; folders found real are added to it.
 */
export function assertNoLinks(root: string, relPath: string, realFolders?: Set<string>): void {
  const parts = relPath.split(/[\\/]+/).filter(Boolean);
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = join(current, part);
    const last = index === parts.length - 1;
    if (!last && realFolders?.has(current)) continue;
    const info = lstatSync(current, { throwIfNoEntry: false });
    if (!info) return;
    if (info.isSymbolicLink()) throw linkError(current, 'symlink');
    if (last) return;
    if (!info.isDirectory()) throw linkError(current, 'not_directory');
    realFolders?.add(current);
  }
}

/**
 * `assertNoLinks` for an absolute path inside a project's `.cairn/`: the
 * project root is the folder above the last `.cairn` component. A path
 * outside any `.cairn/` (a cache in a user folder) has only its last
 * component checked.
 */
export function assertNoCairnLinks(path: string, realFolders?: Set<string>): void {
  const parts = path.split(sep);
  const at = parts.lastIndexOf(CAIRN_DIR);
  if (at > 0) {
    const root = parts.slice(0, at).join(sep) || parse(path).root;
    assertNoLinks(root, parts.slice(at).join(sep), realFolders);
    return;
  }
  assertNoLinks(dirname(path), parts.at(-1) ?? '');
}

/**
 * The folders on the way to a database (`.cairn`, `.cairn/state`,
 * `.cairn/index`) found real in this process. Opening a store checks the
 * file and its three SQLite siblings, each from `.cairn` down, before and
 * after creating its folder, and a hook opens three stores: the folders
 * are checked once per process, the files at every open. A folder missing
 * when checked is not remembered, so one created as a link later is still
 * refused.
 */
const databaseFolders = new Set<string>();

/** Checks a SQLite file and the siblings SQLite opens next to it (WAL, shared memory, journal). */
export function assertSafeDatabasePath(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    assertNoCairnLinks(`${path}${suffix}`, databaseFolders);
  }
}

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
 * children with ENOENT.
 */
export function makeDirectorySync(dir: string): void {
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
}

/** The async form of `makeDirectorySync`. */
export async function makeDirectory(dir: string): Promise<void> {
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
}

/**
 * Prepares the folder of a file under `.cairn/` (state, index): refuses
 * links on the way, then creates the missing folders.
 */
export function prepareStateDirectory(filePath: string): void {
  assertNoCairnLinks(filePath, databaseFolders);
  makeDirectorySync(dirname(filePath));
  // A link created between the check and the mkdir is caught here.
  assertNoCairnLinks(filePath, databaseFolders);
}

/**
 * Appends `text` to a file under `root` (`relPath` like
 * `.cairn/state/lifecycle-errors.jsonl`) without ever following a link:
 * every component is checked with lstat, and the file is opened with
 * O_NOFOLLOW so a link swapped in after the check still fails.
 */
export function appendStateFile(root: string, relPath: string, text: string): void {
  if (isAbsolute(relPath) || relative(root, join(root, relPath)).startsWith('..')) {
    throw new CairnError('INVALID_PATH', `${relPath} is not inside the project`, {
      details: { path: relPath },
    });
  }
  const path = join(root, relPath);
  assertNoLinks(root, relPath);
  try {
    makeDirectorySync(dirname(path));
  } catch (error) {
    throw fsError(error, { op: 'write', path: dirname(path) });
  }
  assertNoLinks(root, relPath);
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw linkError(path, 'symlink');
    throw fsError(error, { op: 'write', path });
  }
  try {
    writeSync(fd, text);
  } catch (error) {
    throw fsError(error, { op: 'write', path });
  } finally {
    closeSync(fd);
  }
}

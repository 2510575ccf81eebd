import {
  closeSync,
  constants,
  type Dirent,
  promises as fsp,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  type Stats,
} from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { isAbsolute, join } from 'node:path';
import { CairnError } from '../errors';
import { fsError } from '../fs-errors';
import { assertNoLinks, unsafeKindOf, unsafePathError } from './link-checks';
import { CAIRN_DIR } from './paths';

/**
 * The one way to read, write, list, stat and create files under a
 * project's `.cairn/` (memory, state, index, config.json, .gitignore).
 * Repository content decides what `.cairn/` holds, and git stores links:
 * every call checks each component from the project root down with lstat
 * and refuses a link anywhere (INVALID_PATH, reason `symlink`), opens
 * with O_NOFOLLOW (a link swapped in after the check still fails), uses
 * only regular files (never a FIFO, socket or device: reason `not_file`)
 * and reads at most MAX_CAIRN_READ_BYTES. Paths are project-relative and
 * start with `.cairn/`.
 */

/**
 * The most bytes Cairn reads from one file under `.cairn/`. Doctor warns
 * about memory files long before (MAX_MEMORY_FILE_BYTES, 5 MB); this cap
 * only stops a runaway file from being loaded whole by every hook.
 */
export const MAX_CAIRN_READ_BYTES = 64 * 1024 * 1024;

// Windows has neither flag; links there need privileges git does not use by default.
export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** A FIFO opened without it waits for a writer: the open must return so fstat can refuse it. */
export const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

export interface CairnReadOptions {
  /** Below MAX_CAIRN_READ_BYTES for files that are always small. */
  maxBytes?: number;
  /**
   * Folders one operation already found real (a scan reading every file
   * of a folder it just listed). Never keep one across operations.
   */
  folders?: Set<string>;
}

/** `relPath` checked to be project-relative, under `.cairn/`, without `.` or `..`. */
export function cairnRelative(relPath: string): string {
  const parts = relPath.split(/[\\/]+/);
  if (
    isAbsolute(relPath) ||
    parts[0] !== CAIRN_DIR ||
    parts.some((part) => part === '.' || part === '..')
  ) {
    throw new CairnError('INVALID_PATH', `${JSON.stringify(relPath)} is not a path under .cairn/`, {
      hint: 'give a project-relative path such as .cairn/state/heads.db; nothing was read or written',
      details: { path: relPath, reason: 'not_allowed' },
    });
  }
  return relPath;
}

/**
 * Checks every component of `relPath` (no link, folders on the way) and
 * returns the lstat of the file, or undefined when it does not exist. A
 * FIFO, socket or device throws `not_file`; a folder throws INVALID_PATH
 * with reason `directory` (an odd state, not a refusal of repository
 * content: `isUnsafePathError` is false for it).
 */
export function statCairnFile(
  rootDir: string,
  relPath: string,
  folders?: Set<string>,
): Stats | undefined {
  const info = assertNoLinks(rootDir, cairnRelative(relPath), folders);
  if (!info || info.isFile()) return info;
  const path = join(rootDir, relPath);
  if (unsafeKindOf(info)) throw unsafePathError(path, 'not_file');
  throw new CairnError('INVALID_PATH', `Cannot use ${path}: it is a folder, not a file`, {
    hint: 'move the folder aside; Cairn keeps a file there',
    details: { path, reason: 'directory' },
  });
}

function tooLarge(path: string, maxBytes: number): CairnError {
  return new CairnError(
    'READ_FAILED',
    `Cannot read ${path}: it is larger than ${maxBytes} bytes, the most Cairn reads from one file`,
    {
      hint: 'look for a runaway writer or pasted binary, and move the file (or its old part) out of .cairn/',
      details: { path, reason: 'too_large', maxBytes },
    },
  );
}

/** An open that failed: a link swapped in (ELOOP under O_NOFOLLOW), gone (undefined), or typed. */
export function openFailure(error: unknown, path: string, op: 'read' | 'write'): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return unsafePathError(path, 'symlink');
  // O_NONBLOCK write-open of a FIFO nobody reads.
  if (code === 'ENXIO') return unsafePathError(path, 'not_file');
  return fsError(error, { op, path });
}

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

function checkOpened(info: Stats, path: string, maxBytes: number): void {
  if (!info.isFile()) throw unsafePathError(path, 'not_file');
  if (info.size > maxBytes) throw tooLarge(path, maxBytes);
}

/** Room for the whole file and one byte more (to see it end), within the cap. */
const firstBuffer = (size: number, maxBytes: number): Buffer =>
  Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(size + 1, 8192)));

/** A full buffer doubled, or the cap error when it already holds more than the cap. */
function grown(buffer: Buffer, path: string, maxBytes: number): Buffer {
  if (buffer.length > maxBytes) throw tooLarge(path, maxBytes);
  const next = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
  buffer.copy(next);
  return next;
}

/** Reads until end of file, never past `maxBytes` (files under /proc report a size of 0). */
function readBoundedSync(fd: number, size: number, path: string, maxBytes: number): Buffer {
  let buffer: Buffer = firstBuffer(size, maxBytes);
  let total = 0;
  for (;;) {
    if (total === buffer.length) buffer = grown(buffer, path, maxBytes);
    const read = readSync(fd, buffer, total, buffer.length - total, null);
    if (read === 0) break;
    total += read;
  }
  if (total > maxBytes) throw tooLarge(path, maxBytes);
  return buffer.subarray(0, total);
}

/** A file's bytes, or undefined when it does not exist. See the rules above. */
export function readCairnFileSync(
  rootDir: string,
  relPath: string,
  options: CairnReadOptions = {},
): Buffer | undefined {
  const maxBytes = options.maxBytes ?? MAX_CAIRN_READ_BYTES;
  const path = join(rootDir, relPath);
  if (!statCairnFile(rootDir, relPath, options.folders)) return undefined;
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw openFailure(error, path, 'read');
  }
  try {
    const info = fstatSync(fd);
    checkOpened(info, path, maxBytes);
    return readBoundedSync(fd, info.size, path, maxBytes);
  } catch (error) {
    throw fsError(error, { op: 'read', path });
  } finally {
    closeSync(fd);
  }
}

/** The async form of `readCairnFileSync`. */
export async function readCairnFile(
  rootDir: string,
  relPath: string,
  options: CairnReadOptions = {},
): Promise<Buffer | undefined> {
  const maxBytes = options.maxBytes ?? MAX_CAIRN_READ_BYTES;
  const path = join(rootDir, relPath);
  if (!statCairnFile(rootDir, relPath, options.folders)) return undefined;
  let handle: Awaited<ReturnType<typeof fsp.open>>;
  try {
    handle = await fsp.open(path, READ_FLAGS);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw openFailure(error, path, 'read');
  }
  try {
    const info = await handle.stat();
    checkOpened(info, path, maxBytes);
    let buffer: Buffer = firstBuffer(info.size, maxBytes);
    let total = 0;
    for (;;) {
      if (total === buffer.length) buffer = grown(buffer, path, maxBytes);
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > maxBytes) throw tooLarge(path, maxBytes);
    return buffer.subarray(0, total);
  } catch (error) {
    throw fsError(error, { op: 'read', path });
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * The entries of a folder under `.cairn/` (types from readdir, which never
 * follows a link), or [] when it does not exist. The folder and every
 * folder above it up to the project root must be real folders.
 */
export function listCairnFolder(rootDir: string, relPath: string, folders?: Set<string>): Dirent[] {
  const path = join(rootDir, relPath);
  const info = assertNoLinks(rootDir, cairnRelative(relPath), folders);
  if (!info) return [];
  if (!info.isDirectory()) throw unsafePathError(path, 'not_directory');
  folders?.add(path);
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw fsError(error, { op: 'read', path });
  }
}

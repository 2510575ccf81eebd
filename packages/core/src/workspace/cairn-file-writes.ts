import { closeSync, constants, promises as fsp, fstatSync, openSync, writeSync } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../atomic-write';
import { fsError } from '../fs-errors';
import { cairnRelative, O_NOFOLLOW, O_NONBLOCK, openFailure, statCairnFile } from './cairn-files';
import { makeDirectory, makeDirectorySync, unsafePathError } from './link-checks';

/**
 * The writes of the `.cairn/` resolver (cairn-files.ts has the rules):
 * every component checked with lstat before and after the missing
 * folders are made, files opened with O_NOFOLLOW, and only regular files.
 */

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW;

/** Checks the way to a file, creates its missing folders as real folders, and checks again. */
async function prepareWrite(rootDir: string, relPath: string): Promise<string> {
  const path = join(rootDir, relPath);
  statCairnFile(rootDir, relPath);
  await makeDirectory(dirname(path));
  // A link put on the way while the folders were made is caught here.
  statCairnFile(rootDir, relPath);
  return path;
}

/**
 * Replaces a file atomically, creating its folders: `writeFileAtomic`
 * creates its temp file in the checked folder with O_CREAT|O_EXCL (which
 * never follows a link: a link already there fails with EEXIST) and
 * renames it over the file (a rename replaces a link, never writes
 * through it).
 */
export async function writeCairnFile(
  rootDir: string,
  relPath: string,
  content: string | Uint8Array,
): Promise<void> {
  const path = await prepareWrite(rootDir, relPath);
  try {
    await writeFileAtomic(path, content);
  } catch (error) {
    throw fsError(error, { op: 'write', path });
  }
}

/** Creates a file that does not exist yet; false (and nothing written) when it does. */
export async function createCairnFile(
  rootDir: string,
  relPath: string,
  content: string | Uint8Array,
): Promise<boolean> {
  const path = await prepareWrite(rootDir, relPath);
  let handle: Awaited<ReturnType<typeof fsp.open>>;
  try {
    handle = await fsp.open(path, CREATE_FLAGS, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw openFailure(error, path, 'write');
  }
  try {
    await handle.writeFile(content);
  } catch (error) {
    throw fsError(error, { op: 'write', path });
  } finally {
    await handle.close().catch(() => {});
  }
  return true;
}

/**
 * Appends `text` to a file (`.cairn/state/lifecycle-errors.jsonl`),
 * creating it (mode 0600) and its folders.
 */
export function appendStateFile(rootDir: string, relPath: string, text: string): void {
  const path = join(rootDir, cairnRelative(relPath));
  statCairnFile(rootDir, relPath);
  makeDirectorySync(dirname(path));
  statCairnFile(rootDir, relPath);
  let fd: number;
  try {
    fd = openSync(path, APPEND_FLAGS | O_NONBLOCK, 0o600);
  } catch (error) {
    throw openFailure(error, path, 'write');
  }
  try {
    if (!fstatSync(fd).isFile()) throw unsafePathError(path, 'not_file');
    writeSync(fd, text);
  } catch (error) {
    throw fsError(error, { op: 'write', path });
  } finally {
    closeSync(fd);
  }
}

/** Creates a folder under `.cairn/` and its missing parents, never through a link. */
export async function makeCairnFolder(rootDir: string, relPath: string): Promise<void> {
  await makeDirectory(join(rootDir, cairnRelative(relPath)));
}

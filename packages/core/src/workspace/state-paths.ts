import { promises as fsp, lstatSync, mkdirSync } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { dirname } from 'node:path';
import { CairnError } from '../errors';
import { fsError } from '../fs-errors';
import { assertNoCairnLinks, assertNoLinksUnderCairn } from './link-checks';

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

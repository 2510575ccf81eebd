import { promises as fsp } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { basename, dirname, join } from 'node:path';
import { fsError } from './fs-errors';
import { nodeCrypto } from './node-crypto';

/** Prefix of temporary files; listings skip anything starting with it. */
export const ATOMIC_TEMP_PREFIX = '.cairn-tmp-';

/**
 * Writes `content` to `path` so that readers see the old or the new file,
 * never a torn one, even if this process is killed: the data goes to a
 * unique temp file in the same directory, is flushed to disk, then renamed
 * over the target. Concurrent writers each use their own temp file, so the
 * result is always one complete version. A failed write leaves no temp
 * file behind and says which file it could not write.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const temp = join(
    dir,
    `${ATOMIC_TEMP_PREFIX}${basename(path)}.${process.pid}.${nodeCrypto().randomBytes(6).toString('hex')}`,
  );
  // A refusal (ENOSPC, EDQUOT, EACCES...) names the file being written, not
  // its temp file (a write through a handle names no path at all).
  const handle = await fsp.open(temp, 'wx', 0o644).catch((error: unknown) => {
    throw fsError(error, { op: 'write', path });
  });
  try {
    await handle.writeFile(content);
    await handle.sync();
    await handle.close();
    await fsp.rename(temp, path);
  } catch (error) {
    await handle.close().catch(() => {});
    await fsp.unlink(temp).catch(() => {});
    throw fsError(error, { op: 'write', path });
  }
  await syncDirectory(dir);
}

/** Makes the rename durable; some filesystems refuse to open a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => {});
  await handle.close().catch(() => {});
}

import { open, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CairnError } from './errors';
import { makeDirectory } from './workspace/state-paths';

export interface FileLockOptions {
  /** Give up (CONFLICT) after this long. Default 15 s. */
  timeoutMs?: number;
  /** A lock older than this whose holder cannot be checked is taken over. Default 60 s. */
  staleMs?: number;
}

function holderAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock is stale when its holder process is gone, or it is older than `staleMs`. */
async function isStale(path: string, staleMs: number): Promise<boolean> {
  const [text, info] = await Promise.all([
    readFile(path, 'utf8').catch(() => ''),
    stat(path).catch(() => undefined),
  ]);
  if (!info) return false;
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0) return !holderAlive(pid);
  return Date.now() - info.mtimeMs > staleMs;
}

async function tryAcquire(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx');
    await handle.writeFile(`${process.pid}\n${new Date().toISOString()}\n`);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Runs `fn` while holding an exclusive lock file (created with O_EXCL, so
 * it works across processes). A lock left by a dead process is taken over.
 * Waits with jittered backoff; after `timeoutMs` throws CONFLICT.
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  await makeDirectory(dirname(path));
  let delay = 5;
  while (!(await tryAcquire(path))) {
    if (await isStale(path, options.staleMs ?? 60_000)) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new CairnError('CONFLICT', `Timed out waiting for the lock ${path}`, {
        hint: 'another Cairn process is writing; retry, or delete the lock file if no Cairn process is running',
        details: { lock: path },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}

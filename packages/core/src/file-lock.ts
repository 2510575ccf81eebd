import { constants, promises as fsp } from 'node:fs';
// `fsp` is read on first use: importing node:fs/promises loads readline up front (~1.5 ms a hook).
import { basename, dirname, join } from 'node:path';
import { CairnError } from './errors';
import { fsError } from './fs-errors';
import { holderLines, holderState, parseHolder } from './lock-holder';
import { nodeCrypto } from './node-crypto';
import { isUnsafePathError, makeDirectory } from './workspace/link-checks';

export interface FileLockOptions {
  /** Give up (CONFLICT) after this long. Default 15 s. */
  timeoutMs?: number;
  /**
   * An empty or unreadable lock (no holder PID in it) older than this is
   * taken over. Cairn writes a lock whole (link of a complete file), so an
   * empty one is debris of a crash or of something else. Default 2 s.
   */
  staleMs?: number;
  /**
   * A lock not refreshed for this long is taken over even though its
   * holder may run: one Cairn cannot check (an older lock without a start
   * time, a process in another PID namespace), or a holder that stopped
   * (Ctrl-Z, `kill -STOP`). A holder refreshes its lock's mtime every
   * quarter of this while it works. Default 60 s: Cairn's locks guard file
   * writes that take milliseconds.
   */
  maxAgeMs?: number;
}

const DEFAULT_MAX_AGE_MS = 60_000;

/** How long a takeover guard may live; holding it takes microseconds. */
const GUARD_STALE_MS = 10_000;

/** What a lock file held when it was looked at: its inode and its bytes. */
interface LockSnapshot {
  ino: number;
  mtimeMs: number;
  content: string;
}

const errnoCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

function symlinkError(path: string): CairnError {
  return new CairnError(
    'INVALID_PATH',
    `The lock ${path} is a symbolic link; Cairn never follows it`,
    {
      hint: 'delete the link (no Cairn process uses it) and retry',
      details: { lock: path, reason: 'symlink' },
    },
  );
}

/** Reads a lock without following a symlink; undefined when it is gone. */
async function snapshot(path: string): Promise<LockSnapshot | undefined> {
  let handle: Awaited<ReturnType<typeof fsp.open>> | undefined;
  try {
    handle = await fsp.open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    const info = await handle.stat();
    return { ino: info.ino, mtimeMs: info.mtimeMs, content: await handle.readFile('utf8') };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    if (errnoCode(error) === 'ELOOP') throw symlinkError(path);
    throw error;
  } finally {
    await handle?.close().catch(() => {});
  }
}

interface StaleAfter {
  /** A lock without a holder pid. */
  staleMs: number;
  /** A lock not refreshed (see FileLockOptions.maxAgeMs). */
  maxAgeMs: number;
}

/**
 * A lock whose holder is gone (dead, its pid reused, another boot or
 * machine: lock-holder.ts), one not refreshed for `maxAgeMs`, or one
 * without a holder pid older than `staleMs`.
 */
function isStale(lock: LockSnapshot, after: StaleAfter): boolean {
  const age = Date.now() - lock.mtimeMs;
  const holder = parseHolder(lock.content);
  if (!holder) return age > after.staleMs;
  return holderState(holder) === 'gone' || age > after.maxAgeMs;
}

const lockContent = () =>
  `${process.pid}\n${new Date().toISOString()}\n${nodeCrypto().randomUUID()}\n${holderLines()}`;

const sameLock = (a: LockSnapshot, b: LockSnapshot) => a.ino === b.ino && a.content === b.content;

/**
 * Creates `path` holding `content`, whole, or returns false when it exists.
 * The content goes to a private temp file first and is hard-linked into
 * place (link fails on an existing name, symlinks included), so no reader
 * ever sees a lock without its holder.
 */
async function createWhole(path: string, content: string): Promise<boolean> {
  const temp = join(dirname(path), `.${basename(path)}.${nodeCrypto().randomUUID()}.tmp`);
  const handle = await fsp.open(temp, 'wx', 0o644).catch((error: unknown) => {
    throw fsError(error, { op: 'write', path });
  });
  try {
    await handle.writeFile(content);
    await handle.close();
  } catch (error) {
    // A full disk (ENOSPC) fails the write: the empty temp file goes, and the error names the lock.
    await handle.close().catch(() => {});
    await fsp.unlink(temp).catch(() => {});
    throw fsError(error, { op: 'write', path });
  }
  try {
    await fsp.link(temp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(errnoCode(error) ?? '')) throw fsError(error, { op: 'write', path });
    return createExclusive(path, content);
  } finally {
    await fsp.unlink(temp).catch(() => {});
  }
}

/** Filesystems without hard links: O_EXCL create, then write (an empty lock is visible briefly). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

async function createExclusive(path: string, content: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof fsp.open>>;
  try {
    handle = await fsp.open(path, 'wx', 0o644);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw fsError(error, { op: 'write', path });
  }
  try {
    await handle.writeFile(content);
    await handle.close();
  } catch (error) {
    // Not a lock without its holder: the half-made file goes.
    await handle.close().catch(() => {});
    await fsp.unlink(path).catch(() => {});
    throw fsError(error, { op: 'write', path });
  }
  return true;
}

/**
 * Removes `path` only if it is still the file `seen` describes: it is
 * renamed aside (one atomic step; only one racer gets a given file), then
 * compared. Anything else that was renamed by mistake is linked back.
 */
async function removeIfSame(path: string, seen: LockSnapshot): Promise<void> {
  const aside = `${path}.${nodeCrypto().randomUUID()}.stale`;
  try {
    await fsp.rename(path, aside);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw error;
  }
  const moved = await snapshot(aside);
  if (moved && !sameLock(moved, seen)) await fsp.link(aside, path).catch(() => {});
  await fsp.unlink(aside).catch(() => {});
}

/**
 * Takes over a stale lock. Takeovers are serialized by a guard file, and
 * the guard holder looks at the lock again before removing it, so a lock
 * created after the stale one was seen is never deleted.
 */
async function takeOver(path: string, seen: LockSnapshot, after: StaleAfter): Promise<boolean> {
  const guard = `${path}.takeover`;
  if (!(await createWhole(guard, lockContent()))) {
    const other = await snapshot(guard);
    if (!other || Date.now() - other.mtimeMs <= GUARD_STALE_MS) return false;
    await removeIfSame(guard, other);
    return true;
  }
  try {
    const now = await snapshot(path);
    if (now && sameLock(now, seen) && isStale(now, after)) await removeIfSame(path, now);
    return true;
  } finally {
    await fsp.unlink(guard).catch(() => {});
  }
}

async function refuseSymlinkedDir(dir: string): Promise<void> {
  const info = await fsp.lstat(dir);
  if (info.isSymbolicLink() || !info.isDirectory()) throw symlinkError(dir);
}

/**
 * Keeps a held lock's mtime fresh while `fn` runs, so a holder that works
 * longer than `maxAgeMs` is not taken for a stopped one.
 */
function keepFresh(path: string, mine: string, maxAgeMs: number): () => void {
  const timer = setInterval(
    () => {
      void snapshot(path)
        .then((held) => {
          const now = new Date();
          if (held?.content === mine) return fsp.lutimes(path, now, now);
        })
        .catch(() => {});
    },
    Math.max(10, Math.floor(maxAgeMs / 4)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Runs `fn` while holding an exclusive lock file, across processes. The
 * lock records who holds it (pid, date, nonce, and the process's start
 * time, boot id, PID namespace and host: lock-holder.ts). A lock whose
 * holder is gone (dead, its pid reused, another boot or machine) is taken
 * over at once, one not refreshed for `maxAgeMs` (a stopped holder, or one
 * that cannot be checked) then, an empty or garbage one after `staleMs`.
 * Waits with jittered backoff; after `timeoutMs` throws CONFLICT. A lock
 * path (or its folder) that is a symbolic link is refused with INVALID_PATH.
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  const after = {
    staleMs: options.staleMs ?? 2_000,
    maxAgeMs: options.maxAgeMs ?? DEFAULT_MAX_AGE_MS,
  };
  // A folder that is a dangling link makes mkdir fail; lstat says why.
  const made = await makeDirectory(dirname(path)).then(
    () => undefined,
    (error: unknown) => error,
  );
  // A link on the way under .cairn/ (makeDirectory checks from the project root down).
  if (isUnsafePathError(made)) throw made;
  await refuseSymlinkedDir(dirname(path)).catch((error) => {
    throw CairnError.isInstance(error) ? error : (made ?? error);
  });
  const mine = lockContent();
  let delay = 5;
  while (!(await createWhole(path, mine))) {
    const seen = await snapshot(path);
    if (seen === undefined) continue;
    if (isStale(seen, after) && (await takeOver(path, seen, after))) continue;
    if (Date.now() > deadline) {
      const holder = parseHolder(seen.content)?.pid;
      throw new CairnError('CONFLICT', `Timed out waiting for the lock ${path}`, {
        hint: `another Cairn process${holder ? ` (pid ${holder})` : ''} is writing; retry, or delete the lock file if no Cairn process is running`,
        details: { lock: path, ...(holder ? { holder } : {}) },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
  const stopRefreshing = keepFresh(path, mine, after.maxAgeMs);
  try {
    return await fn();
  } finally {
    stopRefreshing();
    const held = await snapshot(path).catch(() => undefined);
    if (held?.content === mine) await fsp.unlink(path).catch(() => {});
  }
}

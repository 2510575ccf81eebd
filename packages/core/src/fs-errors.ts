import { CairnError } from './errors';

/** Errno codes that mean "the system refused" rather than "Cairn has a bug". */
const REFUSALS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  EBUSY: 'resource busy',
  ENOTDIR: 'a component of the path is not a directory',
  EISDIR: 'the path is a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

function errnoOf(error: unknown): { code: string; path?: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, path } = error as { code?: unknown; path?: unknown };
  if (typeof code !== 'string' || !(code in REFUSALS)) return undefined;
  return { code, ...(typeof path === 'string' ? { path } : {}) };
}

/**
 * What the system refused, as fsError words it (`no space left on the
 * device (ENOSPC)`), for a raw Node error or one fsError already typed;
 * undefined for anything else.
 */
export function refusalReason(error: unknown): string | undefined {
  const typed = CairnError.isInstance(error) ? error.details?.errno : undefined;
  const code = typeof typed === 'string' ? typed : errnoOf(error)?.code;
  return code && code in REFUSALS ? `${REFUSALS[code]} (${code})` : undefined;
}

/** True for a Node file-system error the system raised (EACCES, EPERM, EROFS, ENOSPC, ...). */
export function isFileSystemRefusal(error: unknown): boolean {
  return !CairnError.isInstance(error) && errnoOf(error) !== undefined;
}

/**
 * Turns a Node file-system error into READ_FAILED or WRITE_FAILED (exit 1),
 * naming the path and what the user can do. A CairnError passes through;
 * any other value is returned as it is (the caller decides).
 */
export function fsError(error: unknown, context: { op: 'read' | 'write'; path?: string }): unknown {
  if (CairnError.isInstance(error)) return error;
  const errno = errnoOf(error);
  if (!errno) return error;
  const path = context.path ?? errno.path ?? '(unknown path)';
  const reason = REFUSALS[errno.code]!;
  const permission = errno.code === 'EACCES' || errno.code === 'EPERM';
  const hint = permission
    ? `check the owner and permissions of ${path} (run Cairn as the user who owns the project)`
    : errno.code === 'EROFS'
      ? 'the file system is mounted read-only; run Cairn where the project is writable'
      : errno.code === 'ENOSPC' || errno.code === 'EDQUOT'
        ? 'free disk space and retry'
        : 'check the path and retry';
  const verb = context.op === 'read' ? 'read' : 'write';
  return new CairnError(
    context.op === 'read' ? 'READ_FAILED' : 'WRITE_FAILED',
    `Cannot ${verb} ${path}: ${reason} (${errno.code})`,
    { cause: error, hint, details: { path, errno: errno.code } },
  );
}

/**
 * For boundaries (CLI, MCP) that catch whatever was thrown: a file-system
 * refusal that escaped as a raw Node error becomes typed. Reads and writes
 * cannot be told apart there, so the syscall decides (`open`, `mkdir`,
 * `rename`, `write`, ... are writes unless it was a plain read).
 */
export function typedFileSystemError(error: unknown): unknown {
  if (!isFileSystemRefusal(error)) return error;
  const syscall = (error as { syscall?: unknown }).syscall;
  const reads = new Set(['read', 'scandir', 'stat', 'lstat', 'access', 'readlink', 'realpath']);
  return fsError(error, {
    op: typeof syscall === 'string' && reads.has(syscall) ? 'read' : 'write',
  });
}

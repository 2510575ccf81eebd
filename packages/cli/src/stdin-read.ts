import { closeSync, constants, fstatSync, openSync, read } from 'node:fs';
import type { Readable } from 'node:stream';

/*
 * Reading standard input without process.stdin and without Cairn's
 * packages: the hook client (hook-server/hook-client.ts) reads the payload
 * in the launcher, before it knows whether the event is answered by the
 * hook server or in this process; io.ts gives the same reads Cairn's errors.
 */

/** What a command reads from stdin at most unless it asks for less (`cairn write`, `cairn add`). */
export const DEFAULT_STDIN_MAX_BYTES = 32 * 1024 * 1024;

export interface ReadStdinOptions {
  /** Bytes read at most (default 32 MB): past that, reading stops with INVALID_INPUT. */
  maxBytes?: number;
  /** Give up (INVALID_INPUT) when stdin has not ended after this many ms. Default: wait. */
  timeoutMs?: number;
}

/** Why reading stopped short: stdin did not end within `limit` ms, or held more than `limit` bytes. */
export class StdinLimit extends Error {
  constructor(
    readonly kind: 'timeout' | 'too-large',
    readonly limit: number,
  ) {
    super(
      kind === 'timeout' ? `stdin did not end within ${limit} ms` : `stdin is over ${limit} bytes`,
    );
  }
}

/** Stdin as read ahead of the command: its text, a terminal (no input), or the limit it hit. */
export type PrereadStdin =
  | { text: string }
  | { terminal: true }
  | { limit: { kind: 'timeout' | 'too-large'; value: number } };

/**
 * How to read stdin without process.stdin where that is safe: a regular
 * file with `fs.read` on fd 0; on Linux, a pipe through a new non-blocking
 * descriptor (/proc/self/fd/0), so no read ever blocks a thread-pool thread
 * (which would hold the process at exit when the writer never closes its
 * end). 'terminal' for a terminal (no input); 'stream' for anything else.
 */
export function stdinWithoutStream():
  | 'terminal'
  | 'stream'
  | ((options?: ReadStdinOptions) => Promise<string>) {
  let stat: ReturnType<typeof fstatSync>;
  try {
    stat = fstatSync(0);
  } catch {
    return 'stream';
  }
  if (stat.isFile()) return (options) => readRawFdBounded(0, options);
  if (stat.isFIFO() && process.platform === 'linux') {
    let fd: number;
    try {
      fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      return 'stream';
    }
    return (options) => readRawFdBounded(fd, options).finally(() => closeSync(fd));
  }
  if (stat.isCharacterDevice()) {
    // node:tty loads node:net: asked only for character devices.
    const tty = process.getBuiltinModule('node:tty') as typeof import('node:tty');
    if (tty.isatty(0)) return 'terminal';
  }
  return 'stream';
}

const READ_CHUNK_BYTES = 64 * 1024;

/** How long a non-blocking stdin that has nothing yet (EAGAIN) waits before reading again. */
const EAGAIN_RETRY_MS = 2;

/**
 * Reads a file descriptor to its end with `fs.read`, within the limits
 * (rejecting with a StdinLimit), and no stream machinery. A descriptor in non-blocking mode that
 * has nothing to read yet (EAGAIN) is read again shortly after. The
 * descriptor must not block for long (a file, or a non-blocking pipe): a
 * read blocked past the timeout would hold its thread until the writer ends.
 */
export function readRawFdBounded(fd: number, options: ReadStdinOptions = {}): Promise<string> {
  const { maxBytes = DEFAULT_STDIN_MAX_BYTES, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: Error | undefined, text = '') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      chunks.length = 0;
      if (error) reject(error);
      else resolve(text);
    };
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => finish(new StdinLimit('timeout', timeoutMs)), timeoutMs);
    const next = () => {
      const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      read(fd, buffer, 0, buffer.length, null, (error, bytes) => {
        if (done) return;
        if ((error as NodeJS.ErrnoException | null)?.code === 'EAGAIN') {
          setTimeout(next, EAGAIN_RETRY_MS);
          return;
        }
        if (error) return finish(error);
        if (bytes === 0) return finish(undefined, Buffer.concat(chunks).toString('utf8'));
        size += bytes;
        if (size > maxBytes) return finish(new StdinLimit('too-large', maxBytes));
        chunks.push(buffer.subarray(0, bytes));
        next();
      });
    };
    next();
  });
}

/**
 * Reads `stream` to its end as UTF-8, but stops (and destroys it, so the
 * rest is never read) as soon as more than `maxBytes` arrived, or when it has
 * not ended after `timeoutMs`: a writer that never closes its end, or sends
 * without end, costs neither unbounded memory nor a hung process.
 */
export function readRawStreamBounded(
  stream: Readable,
  options: ReadStdinOptions = {},
): Promise<string> {
  const { maxBytes = DEFAULT_STDIN_MAX_BYTES, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => stop(new StdinLimit('timeout', timeoutMs)), timeoutMs);
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += bytes.length;
      if (size <= maxBytes) {
        chunks.push(bytes);
        return;
      }
      stop(new StdinLimit('too-large', maxBytes));
    };
    const onEnd = () => {
      cleanUp();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    function cleanUp() {
      clearTimeout(timer);
      stream.off('data', onData).off('end', onEnd).off('error', onError);
    }
    function stop(error: StdinLimit) {
      cleanUp();
      chunks.length = 0;
      stream.destroy();
      reject(error);
    }
    stream.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

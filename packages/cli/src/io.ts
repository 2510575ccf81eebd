import { closeSync, constants, fstatSync, openSync, read, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CairnError, DEFAULT_ERROR_HINTS, formatErrorLine } from '@cairn/core';

/** What a command reads from stdin at most unless it asks for less (`cairn write`, `cairn add`). */
export const DEFAULT_STDIN_MAX_BYTES = 32 * 1024 * 1024;

export interface ReadStdinOptions {
  /** Bytes read at most (default 32 MB): past that, reading stops with INVALID_INPUT. */
  maxBytes?: number;
  /** Give up (INVALID_INPUT) when stdin has not ended after this many ms. Default: wait. */
  timeoutMs?: number;
}

/** Where a command writes; tests pass their own. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * Reads all of standard input, up to `maxBytes` (default 32 MB);
   * undefined when stdin is a terminal.
   */
  readStdin: (options?: ReadStdinOptions) => Promise<string | undefined>;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Writes to fd 1 directly while it takes the bytes at once: a command that
 * prints one answer and exits never pays for constructing process.stdout
 * (a stream over a socket, pipe or file: a few ms per process, and hooks
 * start one per event). A non-blocking pipe that is full (EAGAIN) hands
 * the rest, and every later write, to process.stdout, which keeps the order.
 */
export function fdStdout(
  fd = 1,
  sys: { writeSync: typeof writeSync; stream: () => NodeJS.WritableStream } = {
    writeSync,
    stream: () => process.stdout,
  },
): (text: string) => void {
  let streaming = false;
  return (text) => {
    if (streaming) {
      sys.stream().write(text);
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    try {
      while (written < bytes.length) written += sys.writeSync(fd, bytes, written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return; // the reader is gone, as process.stdout would swallow
      if (code !== 'EAGAIN') throw error;
      streaming = true;
      sys.stream().write(bytes.subarray(written));
    }
  };
}

/** The process streams written through so far (processIO), which `outputFlushed` waits for. */
const usedStreams = new Set<'stdout' | 'stderr'>();

/** Writes to process.stderr (and remembers to flush it before an early exit). */
export function writeStderr(text: string): void {
  usedStreams.add('stderr');
  process.stderr.write(text);
}

export interface ProcessIOOptions {
  /**
   * Read stdin with `fs.read` instead of process.stdin where that is safe
   * (a file; a pipe on Linux): no stream machinery to load, a few ms of
   * each hook process (hook-main.ts).
   */
  stdinFromFd?: boolean;
}

export function processIO(options: ProcessIOOptions = {}): CliIO {
  return {
    stdout: fdStdout(1, {
      writeSync,
      stream: () => {
        usedStreams.add('stdout');
        return process.stdout;
      },
    }),
    stderr: writeStderr,
    readStdin: async (readOptions) => {
      if (options.stdinFromFd) {
        const read = stdinWithoutStream();
        if (read !== 'stream') return read === 'terminal' ? undefined : read(readOptions);
      }
      if (process.stdin.isTTY) return undefined;
      return readBounded(process.stdin, readOptions);
    },
    cwd: process.cwd(),
    env: process.env,
  };
}

/**
 * Resolves once everything written through process.stdout and
 * process.stderr (by processIO) is handed to the OS, so `process.exit()`
 * loses none of it (pipes are asynchronous on macOS). Streams never written
 * are not constructed.
 */
export function outputFlushed(): Promise<void> {
  const flushes = [...usedStreams].map(
    (name) => new Promise<void>((resolve) => process[name].write('', () => resolve())),
  );
  return Promise.all(flushes).then(() => undefined);
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

const timedOut = (timeoutMs: number) =>
  new CairnError('INVALID_INPUT', `Standard input did not end within ${timeoutMs} ms`, {
    hint: 'the writer must close stdin after the payload; nothing was written',
    details: { timeoutMs },
  });

const tooLarge = (maxBytes: number) =>
  new CairnError('INVALID_INPUT', `Standard input is larger than ${megabytes(maxBytes)}`, {
    hint: 'nothing was written; stopped reading at the limit',
    details: { maxBytes },
  });

/**
 * How to read stdin without process.stdin where that is safe: a regular
 * file with `fs.read` on fd 0; on Linux, a pipe through a new non-blocking
 * descriptor (/proc/self/fd/0), so no read ever blocks a thread-pool thread
 * (which would hold the process at exit when the writer never closes its
 * end). 'terminal' for a terminal (no input); 'stream' for anything else.
 */
function stdinWithoutStream():
  | 'terminal'
  | 'stream'
  | ((options?: ReadStdinOptions) => Promise<string>) {
  let stat: ReturnType<typeof fstatSync>;
  try {
    stat = fstatSync(0);
  } catch {
    return 'stream';
  }
  if (stat.isFile()) return (options) => readFdBounded(0, options);
  if (stat.isFIFO() && process.platform === 'linux') {
    let fd: number;
    try {
      fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      return 'stream';
    }
    return (options) => readFdBounded(fd, options).finally(() => closeSync(fd));
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
 * `readBounded` over a file descriptor with `fs.read`: the same limits and
 * errors, and no stream machinery. A descriptor in non-blocking mode that
 * has nothing to read yet (EAGAIN) is read again shortly after. The
 * descriptor must not block for long (a file, or a non-blocking pipe): a
 * read blocked past the timeout would hold its thread until the writer ends.
 */
export function readFdBounded(fd: number, options: ReadStdinOptions = {}): Promise<string> {
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
        : setTimeout(() => finish(timedOut(timeoutMs)), timeoutMs);
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
        if (size > maxBytes) return finish(tooLarge(maxBytes));
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
export function readBounded(stream: Readable, options: ReadStdinOptions = {}): Promise<string> {
  const { maxBytes = DEFAULT_STDIN_MAX_BYTES, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer =
      timeoutMs === undefined ? undefined : setTimeout(() => stop(timedOut(timeoutMs)), timeoutMs);
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += bytes.length;
      if (size <= maxBytes) {
        chunks.push(bytes);
        return;
      }
      stop(tooLarge(maxBytes));
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
    function stop(error: CairnError) {
      cleanUp();
      chunks.length = 0;
      stream.destroy();
      reject(error);
    }
    stream.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

export function printJson(io: CliIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Makes text safe for one stderr line: line breaks become spaces and other
 * control characters (a hostile value echoed in a message could carry a
 * terminal escape) are shown as `\xNN`.
 */
export function oneLine(text: string): string {
  let line = '';
  for (const char of text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')) {
    const code = char.charCodeAt(0);
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    line += control && char !== '\t' ? `\\x${code.toString(16).padStart(2, '0')}` : char;
  }
  return line;
}

/** One line on stderr (`cairn: CODE: message — hint`), or a JSON object with --json. */
export function printError(io: CliIO, error: unknown, json: boolean): void {
  if (json) {
    const body = CairnError.isInstance(error)
      ? { ...error.toJSON(), hint: error.hint ?? DEFAULT_ERROR_HINTS[error.code] }
      : {
          code: 'INTERNAL',
          message: error instanceof Error ? error.message : String(error),
          hint: DEFAULT_ERROR_HINTS.INTERNAL,
        };
    printJson(io, { ok: false, error: body });
    return;
  }
  io.stderr(`cairn: ${oneLine(formatErrorLine(error))}\n`);
}

import { writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CairnError, DEFAULT_ERROR_HINTS, formatErrorLine, redactStrings } from '@cairn/core';
import {
  DEFAULT_STDIN_MAX_BYTES,
  type PrereadStdin,
  type ReadStdinOptions,
  readRawFdBounded,
  readRawStreamBounded,
  StdinLimit,
  stdinWithoutStream,
} from './stdin-read';

export { DEFAULT_STDIN_MAX_BYTES, type PrereadStdin, type ReadStdinOptions };

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

/** Stdin as a hook client read it before handing the event over (hook-server/). */
export function prereadStdin(preread: PrereadStdin): Promise<string | undefined> {
  if ('text' in preread) return Promise.resolve(preread.text);
  if ('terminal' in preread) return Promise.resolve(undefined);
  return Promise.reject(stdinError(new StdinLimit(preread.limit.kind, preread.limit.value)));
}

export interface ProcessIOOptions {
  /** Stdin already read (by the hook client, hook-server/), not to be read again. */
  preread?: PrereadStdin;
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
      if (options.preread) return prereadStdin(options.preread);
      if (options.stdinFromFd) {
        const read = stdinWithoutStream();
        if (read === 'terminal') return undefined;
        if (read !== 'stream')
          return read(readOptions).catch((e: unknown) => Promise.reject(stdinError(e)));
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
 * `readRawFdBounded` with Cairn's errors: INVALID_INPUT when stdin did not
 * end in time or was larger than allowed.
 */
export function readFdBounded(fd: number, options: ReadStdinOptions = {}): Promise<string> {
  return readRawFdBounded(fd, options).catch((error: unknown) => {
    throw stdinError(error);
  });
}

/** A StdinLimit as the CairnError the commands report; anything else as it is. */
export function stdinError(error: unknown): unknown {
  if (!(error instanceof StdinLimit)) return error;
  return error.kind === 'timeout' ? timedOut(error.limit) : tooLarge(error.limit);
}

/**
 * Reads `stream` to its end as UTF-8 within the limits (readRawStreamBounded),
 * with Cairn's errors.
 */
export function readBounded(stream: Readable, options: ReadStdinOptions = {}): Promise<string> {
  return readRawStreamBounded(stream, options).catch((error: unknown) => {
    throw stdinError(error);
  });
}

/**
 * Prints one JSON object: every `--json` answer and error goes through
 * here. JSON is what scripts and agents read (an agent runs `cairn get
 * --json` in its shell and the answer enters its context), so every string
 * in it goes through redactSecrets, as MCP answers do; the text output for
 * a person's terminal prints the memory as written (docs/SECURITY.md).
 */
export function printJson(io: CliIO, value: unknown): void {
  io.stdout(`${JSON.stringify(redactStrings(value).value, null, 2)}\n`);
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

import { writeSync } from 'node:fs';
import { CairnError, formatError } from '@cairn/core';

/** Where a command writes; tests pass their own. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input; undefined when stdin is a terminal. */
  readStdin: () => Promise<string | undefined>;
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

export function processIO(): CliIO {
  return {
    stdout: fdStdout(),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      if (process.stdin.isTTY) return undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    cwd: process.cwd(),
    env: process.env,
  };
}

export function printJson(io: CliIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** One line on stderr (`cairn: CODE: message — hint`), or a JSON object with --json. */
export function printError(io: CliIO, error: unknown, json: boolean): void {
  if (json) {
    const body = CairnError.isInstance(error)
      ? error.toJSON()
      : { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
    printJson(io, { ok: false, error: body });
    return;
  }
  io.stderr(`cairn: ${formatError(error).replace(/\s*\n\s*/g, ' ')}\n`);
}

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

export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
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

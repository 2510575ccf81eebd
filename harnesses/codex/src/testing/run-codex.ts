import { spawn } from 'node:child_process';
import { CODEX_BIN } from './app-server-client';

export interface CodexRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunCodexOptions {
  cwd: string;
  env: Record<string, string>;
  /** Kill the run after this many ms (the result then has a signal). */
  timeoutMs?: number;
}

/**
 * Runs the pinned Codex CLI with stdin closed: `codex exec` reads extra
 * input from stdin whenever it is not a TTY and would otherwise wait on an
 * open pipe forever. Never rejects on a failed run: the caller asserts on
 * the exit code and shows stderr.
 */
export function runCodex(args: string[], options: RunCodexOptions): Promise<CodexRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(CODEX_BIN, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', reject);
    child.once('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
  });
}

/** A one-line account of a failed run, for assertion messages. */
export function describeRun(args: string[], run: CodexRun): string {
  const tail = (text: string) => text.trim().split('\n').slice(-15).join('\n');
  return `codex ${args.join(' ')} exited with ${run.code ?? run.signal}\n--- stderr ---\n${tail(run.stderr)}\n--- stdout ---\n${tail(run.stdout)}`;
}

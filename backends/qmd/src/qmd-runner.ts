import { spawn } from 'node:child_process';
import { MemoryBackendError } from '@cairn/core';
import { QMD_INSTALL_COMMAND, type QmdCommand } from './qmd-command';

/** Why a qmd run did not give an answer: not installed, failed, or too slow. */
export type QmdFailureReason = 'missing' | 'failed' | 'timeout';

export interface QmdRunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
}

export interface QmdRunResult {
  stdout: string;
  stderr: string;
}

const MAX_OUTPUT = 16 * 1024 * 1024;

function failure(
  reason: QmdFailureReason,
  summary: string,
  details: Record<string, unknown>,
  cause?: unknown,
): MemoryBackendError {
  const hint =
    reason === 'missing'
      ? `install qmd with \`${QMD_INSTALL_COMMAND}\` (Node >= 22) or set the "command" option; search uses the file index meanwhile`
      : 'check `qmd status` in a shell; search uses the file index meanwhile';
  return new MemoryBackendError('BACKEND_UNAVAILABLE', 'qmd', summary, {
    hint,
    cause,
    details: { ...details, reason },
  });
}

/** The reason carried by a failure from runQmd, if it is one. */
export function qmdFailureReason(error: unknown): QmdFailureReason | undefined {
  if (!MemoryBackendError.isInstance(error) || error.code !== 'BACKEND_UNAVAILABLE') return;
  const reason = error.details.reason;
  return reason === 'missing' || reason === 'failed' || reason === 'timeout' ? reason : undefined;
}

/** Kills the whole process group: launchers such as `bin/qmd` start qmd as a child. */
function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Why qmd could not start: not installed (or not executable), or anything else. */
function startFailure(
  error: NodeJS.ErrnoException,
  file: string,
  details: Record<string, unknown>,
): MemoryBackendError {
  const missing = error.code === 'ENOENT' || error.code === 'EACCES';
  const summary = missing
    ? `qmd is not installed (${file} not found)`
    : `qmd could not start: ${error.message}`;
  return failure(missing ? 'missing' : 'failed', summary, details, error);
}

/** A non-zero exit (or a signal), with the last lines qmd said. */
function exitFailure(
  code: number | null,
  signal: NodeJS.Signals | null,
  output: QmdRunResult,
  details: Record<string, unknown>,
): MemoryBackendError {
  const { stdout, stderr } = output;
  const said = (stderr.trim() || stdout.trim()).split('\n').slice(-3).join(' ').slice(0, 400);
  return failure('failed', `qmd exited with ${signal ?? `code ${code}`}: ${said || 'no output'}`, {
    ...details,
    exitCode: code,
    stderr: stderr.slice(-2000),
  });
}

/**
 * Runs qmd once and resolves with its output. A missing program, a non-zero
 * exit or a run longer than `timeoutMs` (the process group is killed)
 * rejects with BACKEND_UNAVAILABLE and `details.reason`.
 */
export function runQmd(
  command: QmdCommand,
  args: string[],
  options: QmdRunOptions,
): Promise<QmdRunResult> {
  const [file, ...prefix] = command;
  const argv = [...prefix, ...args];
  const details = { command: [file, ...argv].join(' ') };
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const output: QmdRunResult = { stdout: '', stderr: '' };
    let settled = false;
    const finish = (error: MemoryBackendError | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(output);
    };
    const timer = setTimeout(() => {
      killTree(child.pid);
      finish(failure('timeout', `qmd did not answer within ${options.timeoutMs} ms`, details));
    }, options.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (output.stdout.length < MAX_OUTPUT) output.stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (output.stderr.length < MAX_OUTPUT) output.stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => finish(startFailure(error, file, details)));
    child.on('close', (code, signal) => {
      finish(code === 0 ? undefined : exitFailure(code, signal, output, details));
    });
  });
}

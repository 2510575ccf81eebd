import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * For the harness packages' fixture-capture scripts: a captured record
 * with the long strings Cairn never reads (instructions, context) cut to
 * `(trimmed)`, the keys in `drop` left out, and the capture's temp folder
 * replaced by a stable `placeholder` path, so a recapture diffs cleanly.
 */
export function trimCaptured<T>(
  value: T,
  options: { temp: string; placeholder: string; drop?: readonly string[] },
): T {
  const drop = new Set(options.drop ?? []);
  const text = JSON.stringify(value, (key, inner: unknown) =>
    drop.has(key)
      ? undefined
      : typeof inner === 'string' && inner.length > 300
        ? '(trimmed)'
        : inner,
  );
  return JSON.parse(text.replaceAll(options.temp, options.placeholder)) as T;
}

/** Every file below `dir`, in the order the folders list them. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Runs a harness CLI to its exit without blocking this process's event loop
 * (a scripted model server answers from it), stdin closed; rejects with its
 * stderr when it exits non-zero.
 */
export function runToExit(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(stderr))));
  });
}

import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildArgs } from './backend-child';

/** How a separate process builds the same backend (for the process tests). */
export interface BackendProcessFactory {
  /** URL (e.g. `new URL('../dist/index.js', import.meta.url).href`) or specifier. */
  module: string;
  /** Name of the exported factory, e.g. `createFileBackend`. */
  exportName: string;
  /** JSON-serialisable options for the factory. */
  options?: unknown;
}

const childScript = fileURLToPath(new URL('./backend-child.js', import.meta.url));

export interface RunningWriter {
  child: ChildProcess;
  /** Resolves once the child has loaded the backend and is about to write. */
  ready: Promise<void>;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
  stderr: () => string;
}

export async function writeContentFiles(dir: string, contents: string[]): Promise<string[]> {
  return Promise.all(
    contents.map(async (content, index) => {
      const file = join(dir, `content-${index}.txt`);
      await writeFile(file, content);
      return file;
    }),
  );
}

export function startWriter(
  factory: BackendProcessFactory,
  rootDir: string,
  contentFiles: string[],
  writes: number,
): RunningWriter {
  const args: ChildArgs = { ...factory, rootDir, contentFiles, writes };
  const child = spawn(process.execPath, [childScript, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(signal ?? code ?? -1));
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      if (String(chunk).includes('ready')) resolve();
    });
    exited.then((how) => reject(new Error(`writer exited (${how}) before ready: ${stderr}`)));
  });
  return { child, ready, exited, stderr: () => stderr };
}

/** Content of `size` characters made of one repeated, recognisable line. */
export function bigContent(label: string, size: number): string {
  const line = `${label} — écrit 書き込み ✓ ${'x'.repeat(40)}\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

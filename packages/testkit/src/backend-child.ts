/**
 * A separate process that builds a backend from a module and writes through
 * it, so the conformance suite can run writers concurrently and kill one in
 * the middle of a write. Arguments: one JSON object (see ChildArgs).
 */
import { readFile } from 'node:fs/promises';
import type { MemoryBackend } from '@cairn/core';

export interface ChildArgs {
  /** URL or specifier of the module exporting the factory. */
  module: string;
  exportName: string;
  options?: unknown;
  rootDir: string;
  /** Files whose contents are written in turn. */
  contentFiles: string[];
  /** How many writes; the kill test uses a large number and kills the process. */
  writes: number;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
  const mod = (await import(args.module)) as Record<string, (options?: unknown) => MemoryBackend>;
  const factory = mod[args.exportName];
  if (typeof factory !== 'function') throw new Error(`${args.module} has no ${args.exportName}`);
  const backend = factory(args.options);
  const contents = await Promise.all(args.contentFiles.map((file) => readFile(file, 'utf8')));
  process.stdout.write('ready\n');
  for (let i = 0; i < args.writes; i += 1) {
    await backend.write(args.rootDir, contents[i % contents.length]!);
  }
  process.stdout.write('done\n');
}

main().catch((error) => {
  process.stderr.write(`${String(error?.stack ?? error)}\n`);
  process.exit(1);
});

import { setModuleImporter } from '@cairn/engine';
import * as z from 'zod/mini';
import { EXIT } from './exit-codes';

/**
 * The shared start of the bundled binaries (main.ts, search-main.ts): on
 * Node 20 a bundle runs through `vm.Script` (see compile-cache.ts), where
 * `import()` is unavailable, so the launcher hands over its own for the MCP
 * server and optional backends. `run` gives the exit code.
 */
export function startProcess(
  importModule: ((specifier: string) => Promise<unknown>) | undefined,
  run: () => Promise<number>,
): void {
  if (importModule) setModuleImporter(importModule);
  // A CLI process parses a handful of inputs and exits: compiling zod's fast
  // paths with `new Function` costs more than it saves here.
  z.config({ jitless: true });
  run().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`cairn: INTERNAL: ${String(error)}\n`);
      process.exitCode = EXIT.INTERNAL;
    },
  );
}

import { setModuleImporter } from '@cairn/engine';
import { z } from 'zod';
import { runCli } from './cli';
import { processIO } from './io';

/**
 * The `cairn` binary. On Node 20 this bundle runs through `vm.Script`
 * (see compile-cache.ts), where `import()` is unavailable, so the ESM
 * launcher hands over its own for the MCP server and optional backends.
 */
export function main(importModule?: (specifier: string) => Promise<unknown>): void {
  if (importModule) setModuleImporter(importModule);
  // A CLI process parses a handful of inputs and exits: compiling zod's fast
  // paths with `new Function` costs more than it saves here.
  z.config({ jitless: true });
  runCli(process.argv.slice(2), processIO()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`cairn: INTERNAL: ${String(error)}\n`);
      process.exitCode = 70;
    },
  );
}

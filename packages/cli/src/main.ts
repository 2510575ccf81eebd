import { z } from 'zod';
import { runCli } from './cli';
import { setMcpImporter } from './commands/mcp';
import { processIO } from './io';

/** The `cairn` binary; `importMcp` comes from the ESM launcher (see bin.ts). */
export function main(importMcp?: () => Promise<unknown>): void {
  if (importMcp) setMcpImporter(importMcp);
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

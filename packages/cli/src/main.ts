import { runCli } from './cli';
import { processIO } from './io';
import { startProcess } from './start-process';

/** The `cairn` binary's bundle (bin.ts loads it for every command but `search` and `mcp`). */
export function main(importModule?: (specifier: string) => Promise<unknown>): void {
  startProcess(importModule, () => runCli(process.argv.slice(2), processIO()));
}

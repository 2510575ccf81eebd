import { openMemorySearch } from '@cairn/engine';
import { searchCommand } from './commands/read-commands';
import { processIO } from './io';
import { runCommand } from './run-command';
import { carryBetterSqlite3, startProcess } from './start-process';

/**
 * `cairn search` in a bundle of its own (bin.ts picks it): the search
 * command with only what it loads (settings, the backend and its index), so
 * a search process never starts the unit store, the lineage, the harness
 * adapters or classic zod. It runs the same command spec through the same
 * runner as main.ts.
 */
export function main(importModule?: (specifier: string) => Promise<unknown>): void {
  carryBetterSqlite3();
  startProcess(importModule, () =>
    // No host: this bundle never opens the whole engine.
    runCommand(process.argv.slice(2), processIO(), [searchCommand], {
      openSearch: openMemorySearch,
    }),
  );
}

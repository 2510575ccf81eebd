import { type Cairn, type OpenCairnOptions, openCairn, openMemorySearch } from '@cairn/engine';
import { carryBetterSqlite3 } from './bundled-sqlite';
import { createHookCommand } from './commands/hook';
import { lifecycleCommand } from './commands/working-commands';
import { loadProcessHookDelivery } from './hook-deliveries';
import { processIO } from './io';
import { runCommand } from './run-command';
import { startProcess } from './start-process';

/**
 * Opens a project for a process that exits once the event is answered:
 * closing the lifecycle's stores would checkpoint each SQLite WAL (fsyncs)
 * and delete it, every event, so they are left to the OS (see
 * `exitAtOnce`); what an event committed is in the WAL.
 */
function openForOneEvent(root: string, options: OpenCairnOptions): Cairn {
  return Object.assign(openCairn(root, options), { closeWorking: () => undefined });
}

/**
 * The end of a session closes its stores as every other command does: the
 * checkpoint folds the session's write-ahead logs into the databases and
 * removes them, so they never outgrow one session (or one migration).
 */
const CLOSING_EVENTS = new Set(['SessionEnd', 'session-end']);

/**
 * `cairn hook` (Claude Code, Codex) and `cairn lifecycle` in a bundle of
 * their own (bin.ts picks it): these harnesses start a process per event,
 * so it loads only what an event reaches (settings, the lifecycle, the
 * search index, the payload schemas of Claude Code and Codex), built from
 * the workspace's sources. It runs the same command specs through the same
 * runner as main.ts, and exits as soon as the reply is written.
 */
export function main(importModule?: (specifier: string) => Promise<unknown>): void {
  carryBetterSqlite3();
  const argv = process.argv.slice(2);
  const open = argv.some((arg) => CLOSING_EVENTS.has(arg)) ? openCairn : openForOneEvent;
  const hookCommand = createHookCommand({ loadDelivery: loadProcessHookDelivery, open });
  startProcess(
    importModule,
    () =>
      runCommand(argv, processIO({ stdinFromFd: true }), [hookCommand, lifecycleCommand], {
        open,
        openSearch: openMemorySearch,
      }),
    { exitAtOnce: true },
  );
}

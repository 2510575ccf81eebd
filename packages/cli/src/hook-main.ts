import { openLifecycleHost, openMemorySearch } from '@cairn/engine';
import { EVENT_COMMANDS } from './event-commands';
import { runHookServer } from './hook-server/hook-server-main';
import { type PrereadStdin, processIO } from './io';
import { runCommand } from './run-command';
import { carryBetterSqlite3, startProcess } from './start-process';

/**
 * A due insight extraction run (docs/MAINTENANCE.md), for a process that
 * exits once the event is answered: `cairn insights run --if-due` starts
 * detached, so the hook returns at once and the run takes its own lock.
 */
function detachedMaintenance(root: string): void {
  try {
    const { spawn } = process.getBuiltinModule(
      'node:child_process',
    ) as typeof import('node:child_process');
    const launcher = process.argv[1];
    if (!launcher) return;
    const child = spawn(
      process.execPath,
      [launcher, 'insights', 'run', '--if-due', '--root', root],
      {
        cwd: root,
        detached: true,
        stdio: 'ignore',
      },
    );
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No run this time: the next session end checks again.
  }
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
 * runner as main.ts, and exits as soon as the reply is written. `preread`
 * is stdin as the launcher read it when it offered the event to the hook
 * server (hook-server/hook-client.ts) and none answered.
 */
export function main(
  importModule?: (specifier: string) => Promise<unknown>,
  preread?: PrereadStdin,
): void {
  carryBetterSqlite3();
  const argv = process.argv.slice(2);
  if (argv[0] === 'hook-server') {
    startProcess(importModule, () => runHookServer(argv.slice(1)));
    return;
  }
  // A process per event leaves its stores to the exit; a session end closes them (CLOSING_EVENTS).
  const host = openLifecycleHost({
    keep: argv.some((arg) => CLOSING_EVENTS.has(arg)) ? 'event' : 'exit',
    openOptions: { scheduleMaintenance: detachedMaintenance },
  });
  startProcess(
    importModule,
    () =>
      runCommand(argv, processIO({ stdinFromFd: true, preread }), EVENT_COMMANDS, {
        host,
        openSearch: openMemorySearch,
      }),
    { exitAtOnce: true },
  );
}

import { resolve } from 'node:path';
import {
  type Cairn,
  findProjectRoot,
  type OpenCairnOptions,
  openCairn,
  openMemorySearch,
} from '@cairn/engine';
import { carryBetterSqlite3 } from './bundled-sqlite';
import { createHookCommand } from './commands/hook';
import { lifecycleCommand } from './commands/working-commands';
import { loadProcessHookDelivery } from './hook-deliveries';
import {
  type EventReply,
  HOOK_PROTOCOL_VERSION,
  type HookRequest,
} from './hook-server/hook-protocol';
import { serveHooks } from './hook-server/hook-server';
import { hookServerCommand } from './hook-server/hook-server-command';
import { createProjectCache } from './hook-server/project-cache';
import { hookServerSocket } from './hook-server/server-socket';
import { type CliIO, type PrereadStdin, prereadStdin, processIO, writeStderr } from './io';
import { runCommand } from './run-command';
import { startProcess } from './start-process';

/**
 * Opens a project for a process that exits once the event is answered:
 * closing the lifecycle's stores would checkpoint each SQLite WAL (fsyncs)
 * and delete it, every event, so they are left to the OS (see
 * `exitAtOnce`); what an event committed is in the WAL.
 */
function openForOneEvent(root: string, options: OpenCairnOptions): Cairn {
  return Object.assign(openCairn(root, { scheduleMaintenance: detachedMaintenance, ...options }), {
    closeWorking: () => undefined,
  });
}

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

const openClosing = (root: string, options: OpenCairnOptions): Cairn =>
  openCairn(root, { scheduleMaintenance: detachedMaintenance, ...options });

/**
 * The end of a session closes its stores as every other command does: the
 * checkpoint folds the session's write-ahead logs into the databases and
 * removes them, so they never outgrow one session (or one migration).
 */
const CLOSING_EVENTS = new Set(['SessionEnd', 'session-end']);

/**
 * The project an event is for, as far as the queue needs to know: the
 * `--root` it names, else the project above the hook process's folder
 * (the harness starts it in the session's folder).
 */
function projectOf(request: HookRequest): string {
  const { argv, cwd } = request;
  const at = argv.indexOf('--root');
  const flag = at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith('--root='))?.slice(7);
  return findProjectRoot(resolve(cwd, flag ?? '.'));
}

/** Runs one event with the request's folder, environment and stdin, output kept for the reply. */
async function runRequest(
  request: HookRequest,
  hookCommand: ReturnType<typeof createHookCommand>,
  open: (root: string, options: OpenCairnOptions) => Cairn,
): Promise<EventReply> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: () => prereadStdin(request.stdin),
    cwd: request.cwd,
    env: request.env,
  };
  const code = await runCommand(request.argv, io, [hookCommand, lifecycleCommand], {
    open,
    openSearch: openMemorySearch,
  });
  return { v: HOOK_PROTOCOL_VERSION, stdout, stderr, code, pid: process.pid };
}

/**
 * `cairn hook-server` (hook-server/): answers the events of hook processes
 * with the same commands, projects kept open between events.
 */
async function serve(): Promise<number> {
  const socket = hookServerSocket(process.env, __dirname, false);
  if (!socket) {
    writeStderr(
      'cairn: no hook server: its socket folder ($XDG_CACHE_HOME/cairn/hooks) is missing or not private; a hook event makes it (docs/HOOKS.md)\n',
    );
    return 1;
  }
  const projects = createProjectCache(openCairn);
  const hookCommand = createHookCommand({
    loadDelivery: loadProcessHookDelivery,
    open: projects.open,
  });
  await serveHooks({
    socket,
    env: process.env,
    close: () => projects.closeAll(),
    projectOf,
    openProjects: () => projects.roots(),
    run: (request) => runRequest(request, hookCommand, projects.open),
  });
  return 0;
}

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
    startProcess(importModule, async () => {
      const code = await hookServerCommand(argv.slice(1), processIO());
      return code ?? serve();
    });
    return;
  }
  const open = argv.some((arg) => CLOSING_EVENTS.has(arg)) ? openClosing : openForOneEvent;
  const hookCommand = createHookCommand({ loadDelivery: loadProcessHookDelivery, open });
  startProcess(
    importModule,
    () =>
      runCommand(argv, processIO({ stdinFromFd: true, preread }), [hookCommand, lifecycleCommand], {
        open,
        openSearch: openMemorySearch,
      }),
    { exitAtOnce: true },
  );
}

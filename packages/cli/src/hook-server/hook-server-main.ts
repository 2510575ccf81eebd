import { resolve } from 'node:path';
import {
  findProjectRoot,
  type LifecycleHost,
  openLifecycleHost,
  openMemorySearch,
} from '@cairn/engine';
import { EVENT_COMMANDS } from '../event-commands';
import { type CliIO, prereadStdin, processIO, writeStderr } from '../io';
import { runCommand } from '../run-command';
import { type EventReply, HOOK_PROTOCOL_VERSION, type HookRequest } from './hook-protocol';
import { serveHooks } from './hook-server';
import { hookServerCommand } from './hook-server-command';
import { hookServerSocket } from './server-socket';

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
async function runRequest(request: HookRequest, host: LifecycleHost): Promise<EventReply> {
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
  const code = await runCommand(request.argv, io, EVENT_COMMANDS, {
    host,
    openSearch: openMemorySearch,
  });
  return { v: HOOK_PROTOCOL_VERSION, stdout, stderr, code, pid: process.pid };
}

/**
 * Serves the events of hook processes with the same commands, projects
 * kept open between events by one lifecycle host and closed when the
 * server stops.
 */
async function serve(): Promise<number> {
  const socket = hookServerSocket(process.env, __dirname, false);
  if (!socket) {
    writeStderr(
      'cairn: no hook server: its socket folder ($XDG_CACHE_HOME/cairn/hooks) is missing or not private; a hook event makes it (docs/HOOKS.md)\n',
    );
    return 1;
  }
  const host = openLifecycleHost({ keep: 'open' });
  await serveHooks({
    socket,
    env: process.env,
    close: () => host.close(),
    projectOf,
    openProjects: () => host.roots(),
    run: (request) => runRequest(request, host),
  });
  return 0;
}

/** `cairn hook-server [status|stop]` (hook-server.ts), in the hook bundle. */
export async function runHookServer(args: string[]): Promise<number> {
  const code = await hookServerCommand(args, processIO());
  return code ?? serve();
}

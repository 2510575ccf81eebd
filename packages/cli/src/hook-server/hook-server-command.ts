import { unlinkSync } from 'node:fs';
import { CairnError } from '@cairn/core';
import { EXIT } from '../exit-codes';
import { type CliIO, printError } from '../io';
import {
  controlServer,
  type HookServerState,
  hookServerLine,
  hookServerState,
} from './server-state';

export const HOOK_SERVER_USAGE = 'cairn hook-server [status | stop] [--json]';

const HELP = `usage: ${HOOK_SERVER_USAGE}

The hook server answers the hook events of Claude Code and Codex, and
\`cairn lifecycle\`, from a warm process (docs/HOOKS.md). Hook events start
it; \`cairn hook-server\` alone runs one in the foreground (in the socket
folder a hook event made: a server never makes it again after it is wiped).

  cairn hook-server status   whether one runs for this build and user: pid,
                             uptime, projects open, socket (--json)
  cairn hook-server stop     stop it; the events it accepted are finished
                             first. Safe when none runs (--json)
`;

function duration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const parts = [
    [Math.floor(seconds / 3600), 'h'],
    [Math.floor(seconds / 60) % 60, 'm'],
    [seconds % 60, 's'],
  ] as const;
  const shown = parts.filter(([value], i) => value > 0 || i === parts.length - 1);
  return shown.map(([value, unit]) => `${value}${unit}`).join(' ');
}

function statusText(server: HookServerState): string {
  const { status } = server;
  if (server.state !== 'answering' || !status) return `${hookServerLine(server)}\n`;
  const pending = Object.values(status.pending).reduce((sum, n) => sum + n, 0);
  return [
    `hook server: running (pid ${status.pid}, up ${duration(status.uptimeMs)}, Node ${status.node})`,
    `socket: ${status.socket}`,
    `events answered: ${status.answered}; pending: ${pending}`,
    `projects open: ${status.projects.length}`,
    ...status.projects.map((root) => `  ${root}`),
    '',
  ].join('\n');
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/** Asks the server to stop and waits (up to `waitMs`) until its process is gone. */
async function stopServer(io: CliIO, json: boolean, waitMs: number): Promise<number> {
  const server = await hookServerState(io.env);
  const say = (fields: Record<string, unknown>, text: string) =>
    io.stdout(json ? `${JSON.stringify({ state: server.state, ...fields })}\n` : `${text}\n`);
  if (server.state === 'silent' && server.socket) {
    // Something that cannot prove it is the user's server: its socket goes, and the
    // next event starts a server (a stopped server exits when it sees it gone).
    unlinkSync(server.socket);
    say(
      { removed: server.socket },
      `hook server: removed ${server.socket}, which nothing proved to own`,
    );
    return EXIT.OK;
  }
  const outcome =
    server.state === 'answering' && server.socket
      ? await controlServer(server.socket, 'stop')
      : undefined;
  if (outcome?.kind !== 'reply' || !('stopping' in outcome.reply)) {
    say({ stopped: false }, 'hook server: none is running; nothing to stop');
    return EXIT.OK;
  }
  const { pid } = outcome.reply.stopping;
  const deadline = Date.now() + waitMs;
  while (!gone(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const stopped = gone(pid);
  say(
    { stopped, pid },
    stopped
      ? `hook server: stopped (pid ${pid})`
      : `hook server: stopping (pid ${pid}); it finishes the events it accepted first`,
  );
  return EXIT.OK;
}

/**
 * `cairn hook-server status|stop|--help` (the hook bundle runs it; a bare
 * `cairn hook-server` serves). Undefined when `args` asks to serve.
 */
export async function hookServerCommand(
  args: readonly string[],
  io: CliIO,
): Promise<number | undefined> {
  const json = args.includes('--json');
  const rest = args.filter((arg) => arg !== '--json');
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(HELP);
    return EXIT.OK;
  }
  if (rest.length === 0 && !json) return undefined;
  if (rest.length === 1 && rest[0] === 'status') {
    const server = await hookServerState(io.env);
    const { status, ...rest } = server;
    io.stdout(json ? `${JSON.stringify({ ...rest, ...status })}\n` : statusText(server));
    return EXIT.OK;
  }
  if (rest.length === 1 && rest[0] === 'stop') return stopServer(io, json, 35_000);
  const error = new CairnError('INVALID_INPUT', `Unknown hook-server command "${rest.join(' ')}"`, {
    hint: `usage: ${HOOK_SERVER_USAGE}`,
  });
  printError(io, error, json);
  return EXIT.USAGE;
}

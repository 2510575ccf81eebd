import { unlinkSync } from 'node:fs';
import { CairnError } from '@cairn/core';
import type { CommandSpec } from '../command';
import { commandHelp, subcommandHelp } from '../command-help';
import { EXIT } from '../exit-codes';
import { type CliIO, printError } from '../io';
import { didYouMean } from '../suggest';
import {
  controlServer,
  type HookServerState,
  hookServerLine,
  hookServerState,
} from './server-state';

export const HOOK_SERVER_USAGE = 'cairn hook-server [status | stop] [--json]';

/** The table entry of `cairn hook-server`: its help, suggestions and reference come from it. */
export const hookServerCommandSpec: CommandSpec = {
  name: 'hook-server',
  summary:
    'The warm process that answers Claude Code and Codex hook events and `cairn lifecycle` (status, stop)',
  usage: HOOK_SERVER_USAGE,
  details: [
    'Hook events start it; `cairn hook-server` alone runs one in the foreground (in the',
    'socket folder a hook event made: a server never makes it again after it is wiped).',
    'docs/HOOKS.md says more.',
  ].join('\n'),
  options: {},
  positionals: { min: 0, max: 1 },
  checksRoot: true,
  subcommands: [
    {
      name: 'status',
      usage: 'cairn hook-server status [--json]',
      summary: 'Whether one runs for this build and user: pid, uptime, projects open, socket',
    },
    {
      name: 'stop',
      usage: 'cairn hook-server stop [--json]',
      summary: 'Stop it; the events it accepted are finished first. Safe when none runs',
    },
  ],
  // The launcher (bin.ts) hands `hook-server` to the hook bundle, which serves; this entry
  // answers status and stop where the whole CLI runs it in process.
  async run({ io, json, positionals }) {
    const code = await hookServerCommand([...positionals, ...(json ? ['--json'] : [])], io);
    if (code === undefined) {
      throw new CairnError('INVALID_INPUT', 'A hook server runs from the `cairn` binary', {
        hint: 'run `cairn hook-server` in a shell (hook events start one on their own)',
      });
    }
    return { json: {}, text: '', printed: true, exitCode: code };
  },
};

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
    const sub = hookServerCommandSpec.subcommands?.find((s) => s.name === rest[0]);
    const help = sub
      ? subcommandHelp(hookServerCommandSpec, sub)
      : commandHelp(hookServerCommandSpec);
    io.stdout(`${help}\n`);
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
  const error = new CairnError(
    'INVALID_INPUT',
    `Unknown hook-server subcommand "${rest.join(' ')}"${didYouMean(rest[0] ?? '', ['status', 'stop'])}`,
    {
      hint: `usage: ${HOOK_SERVER_USAGE}`,
    },
  );
  printError(io, error, json);
  return EXIT.USAGE;
}

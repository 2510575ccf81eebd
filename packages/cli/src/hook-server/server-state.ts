import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { askServer, type ServerOutcome } from './hook-client';
import { type ControlRequest, HOOK_PROTOCOL_VERSION, type ServerStatus } from './hook-protocol';
import { hookServerEnabled, hookServerSocket, readServerKey } from './server-socket';

export interface HookServerState {
  /**
   * `answering`: a server runs for this build and proved it is the user's;
   * `idle`: none runs (the next hook event starts one); `silent`: something
   * holds the socket but does not prove it is the user's server in time (a
   * stopped or wedged server; events run in their own process meanwhile);
   * `off`: `CAIRN_HOOK_SERVER=off`; `unavailable`: no private socket folder
   * (events run in their own process).
   */
  state: 'answering' | 'idle' | 'silent' | 'off' | 'unavailable';
  socket?: string;
  /** What the server says about itself, when it answers. */
  status?: ServerStatus;
}

/**
 * The folder of this CLI's bundles (`dist/`, where hook-main.cjs and its
 * recorded hash are): `__dirname` in the bundled binary, this module's
 * folder in the ESM build of the package.
 */
function bundleDir(): string {
  return typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
}

/** Sends a control request to the server on `socket`, once it proved itself. */
export function controlServer(
  socket: string,
  control: ControlRequest['control'],
  timeoutMs = 2_000,
): Promise<ServerOutcome> {
  const key = readServerKey(dirname(socket));
  if (!key) return Promise.resolve({ kind: 'unproven', why: 'absent' });
  return askServer(
    socket,
    key,
    { v: HOOK_PROTOCOL_VERSION, control },
    { proofMs: timeoutMs, replyMs: timeoutMs },
  );
}

/** The hook server of this build and user, as `cairn doctor` and `cairn hook-server status` report it (docs/HOOKS.md). */
export async function hookServerState(env: NodeJS.ProcessEnv): Promise<HookServerState> {
  if (!hookServerEnabled(env)) return { state: 'off' };
  const socket = hookServerSocket(env, bundleDir());
  if (!socket) return { state: 'unavailable' };
  const outcome = await controlServer(socket, 'status');
  if (outcome.kind === 'reply' && 'status' in outcome.reply) {
    return { state: 'answering', socket, status: outcome.reply.status };
  }
  return { state: existsSync(socket) ? 'silent' : 'idle', socket };
}

/** One line for `cairn doctor`. */
export function hookServerLine(server: HookServerState): string {
  switch (server.state) {
    case 'answering':
      return `hook server: answering hook events (${server.socket}, pid ${server.status?.pid})`;
    case 'idle':
      return 'hook server: not running; the next Claude Code, Codex or `cairn lifecycle` event starts it';
    case 'silent':
      return `hook server: something holds ${server.socket} but does not prove it is your hook server; hook events run in their own process (\`cairn hook-server stop\` removes it)`;
    case 'off':
      return 'hook server: off (CAIRN_HOOK_SERVER=off); every hook event runs in its own process';
    default:
      return 'hook server: unavailable (no private folder for its socket under $XDG_CACHE_HOME/cairn); every hook event runs in its own process';
  }
}

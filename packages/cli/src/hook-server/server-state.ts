import { connect } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookServerEnabled, hookServerSocket } from './server-socket';

export interface HookServerState {
  /** `answering`: a server runs for this build; `idle`: none runs (the next hook event starts one); `off`: `CAIRN_HOOK_SERVER=off`; `unavailable`: no private socket folder (events run in their own process). */
  state: 'answering' | 'idle' | 'off' | 'unavailable';
  socket?: string;
}

function answers(socket: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    const done = (answer: boolean) => {
      clearTimeout(timer);
      probe.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    probe.on('connect', () => done(true));
    probe.on('error', () => done(false));
  });
}

/**
 * The folder of this CLI's bundles (`dist/`, where hook-main.cjs and its
 * recorded hash are): `__dirname` in the bundled binary, this module's
 * folder in the ESM build of the package.
 */
function bundleDir(): string {
  return typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
}

/** The hook server of this build and user, as `cairn doctor` reports it (docs/HOOKS.md). */
export async function hookServerState(env: NodeJS.ProcessEnv): Promise<HookServerState> {
  if (!hookServerEnabled(env)) return { state: 'off' };
  const socket = hookServerSocket(env, bundleDir());
  if (!socket) return { state: 'unavailable' };
  return { state: (await answers(socket, 500)) ? 'answering' : 'idle', socket };
}

/** One line for `cairn doctor`. */
export function hookServerLine(server: HookServerState): string {
  switch (server.state) {
    case 'answering':
      return `hook server: answering hook events (${server.socket})`;
    case 'idle':
      return 'hook server: not running; the next Claude Code, Codex or `cairn lifecycle` event starts it';
    case 'off':
      return 'hook server: off (CAIRN_HOOK_SERVER=off); every hook event runs in its own process';
    default:
      return 'hook server: unavailable (no private folder for its socket under $XDG_CACHE_HOME/cairn); every hook event runs in its own process';
  }
}

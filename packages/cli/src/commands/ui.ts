import { CairnError, formatError } from '@cairn/core';
import { importOptionalModule } from '@cairn/engine';
import type { CommandContext, CommandSpec } from '../command';
import { findOnPath } from './cairn-command';
import { parsePort, untilStopped } from './mcp';

type ServerModule = typeof import('@cairn/server');

const USAGE = 'cairn ui [--port N] [--no-open] [--root <dir>]';

/**
 * Opens `url` in the user's browser when this machine can show one:
 * best-effort, never an error (a server over SSH has no browser; the URL
 * is printed anyway).
 */
function openBrowser(url: string, env: NodeJS.ProcessEnv): boolean {
  const opener =
    process.platform === 'darwin'
      ? 'open'
      : process.platform === 'win32'
        ? undefined
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? 'xdg-open'
          : undefined;
  const command = opener && findOnPath(opener, env);
  if (!command) return false;
  try {
    // Loaded here: every other command starts without node:child_process.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(command, [url], { detached: true, stdio: 'ignore', env });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

async function serve(context: CommandContext): Promise<void> {
  const { io, values } = context;
  const port = parsePort(values.port, USAGE) ?? 0;
  const cairn = await context.open();
  // Loaded here: no other command, and no hook, pays for the server and its UI.
  const { serveDashboard } = (await importOptionalModule('@cairn/server')) as ServerModule;
  const handle = await serveDashboard(cairn, {
    port,
    onInternalError: (error) => io.stderr(`cairn ui: ${formatError(error)}\n`),
    // A refused request is worth seeing: another page or user trying the port, or a stale link.
    onRefused: (refusal) =>
      io.stderr(
        `cairn ui: refused ${refusal.method} ${refusal.path} (${refusal.status}: ${refusal.reason.split(' — ')[0]}${refusal.origin ? `; Origin ${refusal.origin}` : ''})\n`,
      ),
  });
  const opened = values['no-open'] !== true && openBrowser(handle.url, io.env);
  io.stdout(
    `cairn ui: the dashboard of ${cairn.rootDir} is at ${handle.origin} (Ctrl-C stops it)\n` +
      `${opened ? 'Opened in your browser; the link' : 'Open this link; it'} signs in once:\n${handle.url}\n`,
  );
  try {
    await untilStopped(handle);
  } finally {
    cairn.closeWorking();
  }
}

/** `cairn ui`: the local dashboard (`@cairn/server`) of this project. */
export const uiCommand: CommandSpec = {
  name: 'ui',
  summary: 'Open the local dashboard: units, review inbox, receipts, lineage, fix patterns, doctor',
  usage: USAGE,
  options: {
    port: { type: 'string' },
    'no-open': { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  async run(context) {
    if (context.json) {
      throw new CairnError('INVALID_INPUT', '`cairn ui` has no --json output', {
        hint: `usage: ${USAGE}`,
      });
    }
    await serve(context);
    return { json: { ok: true }, text: '' };
  },
};

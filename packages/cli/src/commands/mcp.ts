import { CairnError, formatError } from '@cairn/core';
import { importOptionalModule } from '@cairn/engine';
import type { CommandContext, CommandSpec } from '../command';

type McpModule = typeof import('@cairn/mcp');

let bundledMcp: (() => Promise<McpModule>) | undefined;

/**
 * The `cairn mcp` build of the binary (mcp-main.ts) bundles the MCP server
 * and hands it over here, so the server starts from one code-cached file
 * instead of resolving and compiling a tree of ES modules: Codex sends its
 * first request without waiting for MCP servers, so start-up time decides
 * whether Cairn's tools are in that turn.
 */
export function provideMcpModule(load: () => Promise<McpModule>): void {
  bundledMcp = load;
}

interface ServerHandle {
  close(): Promise<void>;
  readonly closed: Promise<void>;
}

function usageError(message: string): CairnError {
  return new CairnError('INVALID_INPUT', message, { hint: `usage: ${mcpCommand.usage}` });
}

/** `--port`: 0-65535 (0 picks a free port); INVALID_INPUT with the command's usage otherwise. */
export function parsePort(value: unknown, usage = mcpCommand.usage): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || port > 65535) {
    throw new CairnError(
      'INVALID_INPUT',
      `--port must be a number from 0 to 65535 (0 picks a free port), got ${String(value)}`,
      { hint: `usage: ${usage}` },
    );
  }
  return port;
}

/** Waits until the server stops: the client hung up, or SIGINT/SIGTERM asked it to. */
export async function untilStopped(handle: ServerHandle): Promise<void> {
  const stop = () => void handle.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await handle.closed;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** While stdout carries the protocol, stray console output goes to stderr instead. */
function divertConsole(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = console.error;
  return () => Object.assign(console, saved);
}

/** Loaded on use so that no other command pays for the MCP SDK. */
async function loadMcp(): Promise<McpModule> {
  return bundledMcp ? bundledMcp() : ((await importOptionalModule('@cairn/mcp')) as McpModule);
}

/** `cairn mcp token [--rotate]`: prints the bearer token of `cairn mcp --http`. */
async function showToken(context: CommandContext) {
  const { io, values } = context;
  const { loadOrCreateMcpToken, rotateMcpToken, mcpTokenPath } = await loadMcp();
  const options = { env: io.env };
  const rotated = values.rotate === true;
  const token = rotated ? rotateMcpToken(options) : loadOrCreateMcpToken(options);
  return { json: { ok: true, token, path: mcpTokenPath(options), rotated }, text: token };
}

async function serve(context: CommandContext): Promise<void> {
  const { io, values } = context;
  const http = values.http === true;
  const port = parsePort(values.port);
  const host = typeof values.host === 'string' ? values.host : undefined;
  const allowRemote = values['allow-remote'] === true;
  const noAuth = values['no-auth'] === true;
  if (!http && (port !== undefined || host !== undefined || allowRemote || noAuth)) {
    throw usageError('--port, --host, --allow-remote and --no-auth need --http');
  }
  if (values.rotate === true) throw usageError('--rotate goes with `cairn mcp token`');
  const cairn = await context.open();
  const { serveHttp, serveStdio, loadOrCreateMcpToken, mcpTokenPath } = await loadMcp();
  const onToolError = (error: unknown, tool: string) => {
    if (!CairnError.isInstance(error)) io.stderr(`cairn mcp: ${tool}: ${formatError(error)}\n`);
  };
  if (http) {
    const token = noAuth ? undefined : loadOrCreateMcpToken({ env: io.env });
    const handle = await serveHttp(cairn, { port, host, allowRemote, noAuth, token, onToolError });
    io.stderr(`cairn mcp listening on ${handle.url}\n`);
    io.stderr(
      noAuth
        ? 'cairn mcp: WARNING: --no-auth: anyone who can reach the port can read and write this memory\n'
        : `cairn mcp: clients must send "Authorization: Bearer <token>"; the token is in ${mcpTokenPath({ env: io.env })} (print it with \`cairn mcp token\`)\n`,
    );
    await untilStopped(handle);
    return;
  }
  const restore = divertConsole();
  try {
    const handle = await serveStdio(cairn, { onToolError });
    io.stderr(`cairn mcp: serving ${context.root} on stdio\n`);
    await untilStopped(handle);
  } finally {
    restore();
  }
}

export const mcpCommand: CommandSpec = {
  name: 'mcp',
  summary: 'Serve the memory tools over MCP: stdio, or streamable HTTP with --http',
  usage:
    'cairn mcp [--http [--port N] [--host H] [--allow-remote] [--no-auth]] [--root <dir>]  |  cairn mcp token [--rotate]',
  options: {
    http: { type: 'boolean' },
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-remote': { type: 'boolean' },
    'no-auth': { type: 'boolean' },
    rotate: { type: 'boolean' },
  },
  positionals: { min: 0, max: 1 },
  // A user-scope install starts `cairn mcp` in every workspace; its first write makes .cairn/.
  opensUninitialized: true,
  subcommands: [
    {
      name: 'token',
      usage: 'cairn mcp token [--rotate] [--json]',
      summary: 'Print the bearer token `cairn mcp --http` requires (--rotate: replace it)',
    },
  ],
  async run(context) {
    const [sub] = context.positionals;
    if (sub === 'token') return showToken(context);
    if (sub !== undefined) throw usageError(`Unknown mcp subcommand "${sub}"`);
    await serve(context);
    return { json: { ok: true }, text: '' };
  },
};

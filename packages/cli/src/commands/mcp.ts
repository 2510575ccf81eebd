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

function parsePort(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || port > 65535) {
    throw usageError(
      `--port must be a number from 0 to 65535 (0 picks a free port), got ${String(value)}`,
    );
  }
  return port;
}

/** Waits until the server stops: the client hung up, or SIGINT/SIGTERM asked it to. */
async function untilStopped(handle: ServerHandle): Promise<void> {
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

async function serve(context: CommandContext): Promise<void> {
  const { io, values } = context;
  const http = values.http === true;
  const port = parsePort(values.port);
  const host = typeof values.host === 'string' ? values.host : undefined;
  const allowRemote = values['allow-remote'] === true;
  if (!http && (port !== undefined || host !== undefined || allowRemote)) {
    throw usageError('--port, --host and --allow-remote need --http');
  }
  const cairn = context.open();
  // Loaded here so that no other command pays for the MCP SDK.
  const { serveHttp, serveStdio } = bundledMcp
    ? await bundledMcp()
    : ((await importOptionalModule('@cairn/mcp')) as McpModule);
  const onToolError = (error: unknown, tool: string) => {
    if (!CairnError.isInstance(error)) io.stderr(`cairn mcp: ${tool}: ${formatError(error)}\n`);
  };
  if (http) {
    const handle = await serveHttp(cairn, { port, host, allowRemote, onToolError });
    io.stderr(`cairn mcp listening on ${handle.url}\n`);
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
  usage: 'cairn mcp [--http [--port N] [--host H] [--allow-remote]] [--root <dir>]',
  options: {
    http: { type: 'boolean' },
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-remote': { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  async run(context) {
    await serve(context);
    return { json: { ok: true }, text: '' };
  },
};

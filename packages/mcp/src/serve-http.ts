import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertTcpPort, CairnError, listenOn } from '@cairn/core';
import type { Cairn } from '@cairn/engine';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type CairnMcpServerOptions, createCairnMcpServer } from './create-cairn-mcp-server';
import { guardToolCalls } from './guard-requests';
import { createLocalHttpGuard } from './local-http-guard';
import { isLoopbackHost } from './loopback';
import type { McpServerHandle } from './serve-stdio';

/** The port `cairn mcp --http` listens on when none is given. */
export const DEFAULT_HTTP_PORT = 7377;

export interface ServeHttpOptions extends CairnMcpServerOptions {
  /** Default 7377; 0 picks a free port (read it from the handle's `url`). */
  port?: number;
  /** Default `127.0.0.1`. Other hosts are refused unless `allowRemote` is set. */
  host?: string;
  /**
   * Serve on a non-loopback host. Turns off the Host/Origin checks; the
   * token is still required, but travels in clear over plain HTTP: put the
   * server behind TLS.
   */
  allowRemote?: boolean;
  /**
   * The bearer token every request must send (`Authorization: Bearer …`);
   * `cairn mcp --http` uses `loadOrCreateMcpToken()`. Required unless `noAuth`.
   */
  token?: string;
  /**
   * Accept requests without a token. Dangerous: any local user, and any
   * page that can reach the port from the server's own origin, can then
   * read and write the memory.
   */
  noAuth?: boolean;
  /** The endpoint path. Default `/mcp`. */
  path?: string;
}

export interface HttpServerHandle extends McpServerHandle {
  /** The endpoint, e.g. `http://127.0.0.1:7377/mcp`. */
  readonly url: string;
}

function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Stateless: every POST gets a fresh MCP server and transport over the one
 * Cairn, answered as plain JSON. No session to lose, nothing to expire, and
 * the unit writes are already safe across concurrent requests (file lock).
 * GET (a server-to-client stream) has nothing to carry here, so it is 405.
 */
function requestHandler(
  cairn: Cairn,
  options: ServeHttpOptions,
  path: string,
  Transport: typeof StreamableHTTPServerTransport,
  guard: () => ReturnType<typeof createLocalHttpGuard>,
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) {
      return sendJsonRpcError(res, 404, `Not found: the MCP endpoint is ${path}`);
    }
    const verdict = guard()(req.headers);
    if (!verdict.ok) return sendJsonRpcError(res, verdict.status, verdict.message, verdict.headers);
    if (req.method !== 'POST') {
      const message = 'Method not allowed: this server is stateless, POST JSON-RPC to it';
      return sendJsonRpcError(res, 405, message, { allow: 'POST' });
    }
    const server = createCairnMcpServer(cairn, options);
    const transport = new Transport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      guardToolCalls(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      options.onToolError?.(error, 'http');
      if (!res.headersSent)
        sendJsonRpcError(res, 500, 'Internal error while handling the MCP request');
    }
  };
}

/** The host, port and path to serve on; a remote host, a missing token or a bad port is refused. */
function checkServeOptions(options: ServeHttpOptions): {
  port: number;
  host: string;
  path: string;
} {
  const { port = DEFAULT_HTTP_PORT, host = '127.0.0.1', path = '/mcp' } = options;
  if (!isLoopbackHost(host) && !options.allowRemote) {
    throw new CairnError(
      'INVALID_INPUT',
      `Refusing to serve MCP on the non-loopback host ${host}`,
      {
        hint: 'bind 127.0.0.1, or opt in with allowRemote (cairn mcp --allow-remote) behind TLS',
        details: { host },
      },
    );
  }
  if (options.token === undefined && !options.noAuth) {
    throw new CairnError('INVALID_INPUT', 'serveHttp needs a bearer token', {
      hint: 'pass token (e.g. loadOrCreateMcpToken()), or noAuth: true to accept anyone who can reach the port',
    });
  }
  assertTcpPort(port);
  return { port, host, path };
}

/** Listens, or says why not: CONFLICT when another process has the port. */
function listenOrRefuse(http: Server, port: number, host: string): Promise<AddressInfo> {
  return listenOn(http, port, host).catch((error: NodeJS.ErrnoException) => {
    const inUse = error.code === 'EADDRINUSE';
    throw new CairnError(
      inUse ? 'CONFLICT' : 'INVALID_INPUT',
      `Cannot listen on ${host}:${port}: ${error.code ?? error.message}`,
      {
        cause: error,
        hint: inUse
          ? 'another process has the port: pick another with --port, or 0 for a free one'
          : 'check the host and port',
      },
    );
  });
}

/**
 * Serves the memory tools over MCP streamable HTTP on node:http. Every
 * request needs the bearer `token` and, from a browser, the server's own
 * origin (see createLocalHttpGuard). Loopback
 * only unless `allowRemote` is set (INVALID_INPUT otherwise); resolves once
 * listening. Once stopped, the working memory of `cairn` is closed
 * (`closeWorking`): the per-request MCP servers share it, so they leave it open.
 */
export async function serveHttp(
  cairn: Cairn,
  options: ServeHttpOptions = {},
): Promise<HttpServerHandle> {
  const { port, host, path } = checkServeOptions(options);
  // Loaded here, not with the package: the transport brings an HTTP framework
  // (and Node's fetch classes) that `cairn mcp` over stdio never needs.
  const { StreamableHTTPServerTransport: Transport } = await import(
    '@modelcontextprotocol/sdk/server/streamableHttp.js'
  );
  let guard: ReturnType<typeof createLocalHttpGuard> | undefined;
  // Requests arrive only once listening, when the bound port (for the Origin check) is known.
  const handle = requestHandler(cairn, options, path, Transport, () => guard!);
  const http = createServer((req, res) => void handle(req, res));
  const closed = new Promise<void>((resolve) =>
    http.once('close', () => {
      cairn.closeWorking();
      resolve();
    }),
  );
  const address = await listenOrRefuse(http, port, host);
  guard = createLocalHttpGuard({
    token: options.noAuth ? undefined : options.token,
    port: address.port,
    allowRemote: options.allowRemote,
  });
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}${path}`,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

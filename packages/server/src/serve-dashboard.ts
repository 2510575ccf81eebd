import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CairnError, checkLocalOrigin, isLoopbackHost } from '@cairn/core';
import type { Cairn } from '@cairn/engine';
import {
  CSRF_HEADER,
  createDashboardAuth,
  csrfMatches,
  type DashboardAuth,
  redeemLaunchToken,
  sessionCsrf,
} from './dashboard-auth';
import { errorBody, readJsonBody, SECURITY_HEADERS, sendError, sendJson } from './http-io';
import { lineageRoutes } from './lineage-routes';
import { type MaintenanceSource, noMaintenance } from './maintenance-source';
import { memoryRoutes } from './memory-routes';
import { overviewRoutes } from './overview-routes';
import { patternRoutes } from './pattern-routes';
import type { Method, Route } from './route';
import { defaultUiDir, loadAssets, type StaticAsset } from './static-assets';
import { unitRoutes } from './unit-routes';

export interface DashboardOptions {
  /** Default 0: a free port (read it from the handle). */
  port?: number;
  /** Default `127.0.0.1`. Only loopback hosts are accepted: `0.0.0.0` is refused. */
  host?: string;
  /** Consolidation proposals and staleness; default none (see maintenance-source.ts). */
  maintenance?: MaintenanceSource;
  /** The built UI's folder; default the package's `dist/ui/`. */
  uiDir?: string;
  /** Errors that are not Cairn's typed errors (bugs), for the terminal. */
  onInternalError?: (error: unknown) => void;
}

export interface DashboardHandle {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The one-time sign-in URL: it sets the session cookie once, then stops working. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
  /** Resolves once the server has stopped. */
  readonly closed: Promise<void>;
}

const ROUTES: Route[] = [
  ...memoryRoutes,
  ...unitRoutes,
  ...overviewRoutes,
  ...patternRoutes,
  ...lineageRoutes,
];

interface DashboardState {
  cairn: Cairn;
  auth: DashboardAuth;
  maintenance: MaintenanceSource;
  assets: Map<string, StaticAsset>;
  port: number;
  onInternal: (error: unknown) => void;
}

function refuse(
  res: ServerResponse,
  status: number,
  code: 'INVALID_INPUT',
  message: string,
  hint: string,
) {
  sendJson(res, status, errorBody(new CairnError(code, message, { hint })));
}

function serveAsset(state: DashboardState, res: ServerResponse, path: string): void {
  const asset = state.assets.get(path === '/index.html' ? '/' : path);
  if (!asset) {
    refuse(
      res,
      404,
      'INVALID_INPUT',
      `Not found: ${path.slice(0, 100)}`,
      'open / for the dashboard',
    );
    return;
  }
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': asset.type,
    'content-length': String(asset.body.length),
    'cache-control': 'no-cache',
  });
  res.end(asset.body);
}

/** `/auth/<token>`: trades the launch token for the session cookie, then sends the browser to `/`. */
function signIn(state: DashboardState, res: ServerResponse, token: string): void {
  let cookie: string;
  try {
    cookie = redeemLaunchToken(state.auth, token);
  } catch (error) {
    sendJson(res, 401, errorBody(error as CairnError));
    return;
  }
  res.writeHead(303, {
    ...SECURITY_HEADERS,
    'set-cookie': cookie,
    location: '/',
    'cache-control': 'no-store',
  });
  res.end();
}

async function serveApi(
  state: DashboardState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const csrf = sessionCsrf(state.auth, req.headers);
  if (csrf === undefined) {
    const hint = 'open the one-time link `cairn ui` printed (restart it for a new one)';
    return sendJson(
      res,
      401,
      errorBody(new CairnError('INVALID_INPUT', 'Not signed in', { hint })),
    );
  }
  const method = (req.method ?? 'GET') as Method;
  if (method === 'GET' && url.pathname === '/api/session') {
    return sendJson(res, 200, { csrf, csrfHeader: CSRF_HEADER });
  }
  if (method !== 'GET' && !csrfMatches(req.headers, csrf)) {
    const hint = `send the ${CSRF_HEADER} header that GET /api/session gives; nothing was changed`;
    return sendJson(
      res,
      403,
      errorBody(new CairnError('INVALID_INPUT', 'Missing or wrong CSRF token', { hint })),
    );
  }
  for (const route of ROUTES) {
    const match = route.path.exec(url.pathname);
    if (!match || route.method !== method) continue;
    const body = method === 'POST' || method === 'PUT' ? await readJsonBody(req) : undefined;
    const params = match.slice(1).map((part) => decodeURIComponent(part));
    const { cairn, maintenance } = state;
    const result = await route.handle({
      cairn,
      maintenance,
      params,
      query: url.searchParams,
      body,
    });
    return sendJson(res, 200, result ?? { ok: true });
  }
  const hint = 'see docs/DASHBOARD.md for the API';
  sendJson(
    res,
    404,
    errorBody(
      new CairnError('NOT_FOUND', `No API route ${method} ${url.pathname.slice(0, 100)}`, { hint }),
    ),
  );
}

function handler(state: DashboardState) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const verdict = checkLocalOrigin(req.headers, state.port);
      if (!verdict.ok)
        return refuse(
          res,
          verdict.status,
          'INVALID_INPUT',
          verdict.message,
          'open the dashboard at the URL `cairn ui` printed',
        );
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname.startsWith('/api/')) return await serveApi(state, req, res, url);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return refuse(
          res,
          405,
          'INVALID_INPUT',
          'Method not allowed',
          'the pages are read with GET',
        );
      }
      const auth = /^\/auth\/([A-Za-z0-9_-]{1,100})$/.exec(url.pathname);
      if (auth) return signIn(state, res, auth[1]!);
      serveAsset(state, res, url.pathname);
    } catch (error) {
      if (CairnError.isInstance(error) && error.code === 'QUOTA_EXCEEDED')
        res.setHeader('connection', 'close');
      sendError(res, error, state.onInternal);
    }
  };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function checkOptions(host: string, port: number): void {
  if (!isLoopbackHost(host)) {
    throw new CairnError(
      'INVALID_INPUT',
      `Refusing to serve the dashboard on the non-loopback host ${host}`,
      {
        hint: 'the dashboard serves this machine only: bind 127.0.0.1 (the default), localhost or ::1',
        details: { host },
      },
    );
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CairnError('INVALID_INPUT', `Not a TCP port: ${port}`, {
      hint: 'use 0-65535 (0 picks a free port)',
    });
  }
}

/**
 * Serves the dashboard of one project on a loopback port: the UI and its
 * API over `cairn`, behind the local guard (loopback Host, own Origin), a
 * session cookie won through the one-time URL, and a CSRF token on every
 * write. Resolves once listening.
 */
export async function serveDashboard(
  cairn: Cairn,
  options: DashboardOptions = {},
): Promise<DashboardHandle> {
  const { port = 0, host = '127.0.0.1' } = options;
  checkOptions(host, port);
  const state: DashboardState = {
    cairn,
    auth: createDashboardAuth(),
    maintenance: options.maintenance ?? noMaintenance,
    assets: loadAssets(options.uiDir ?? defaultUiDir()),
    port: 0,
    onInternal: options.onInternalError ?? (() => undefined),
  };
  const server = createServer(handler(state));
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const address = await listen(server, port, host);
  state.port = address.port;
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  return {
    origin,
    url: `${origin}/auth/${state.auth.launchToken}`,
    port: address.port,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

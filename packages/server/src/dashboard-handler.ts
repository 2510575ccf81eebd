import type { IncomingMessage, ServerResponse } from 'node:http';
import { CairnError } from '@cairn/core';
import type { Cairn } from '@cairn/engine';
import { CSRF_HEADER, type DashboardAuth, redeemLaunchToken } from './dashboard-auth';
import { errorBody, readJsonBody, SECURITY_HEADERS, sendError, sendJson } from './http-io';
import { lineageRoutes } from './lineage-routes';
import type { MaintenanceSource } from './maintenance-source';
import { memoryRoutes } from './memory-routes';
import { overviewRoutes } from './overview-routes';
import { patternRoutes } from './pattern-routes';
import { guardRequest, type Refusal } from './request-guard';
import type { Method, Route } from './route';
import type { StaticAsset } from './static-assets';
import { unitRoutes } from './unit-routes';

const ROUTES: Route[] = [
  ...memoryRoutes,
  ...unitRoutes,
  ...overviewRoutes,
  ...patternRoutes,
  ...lineageRoutes,
];

/** What one dashboard serves, and to whom. */
export interface DashboardState {
  cairn: Cairn;
  auth: DashboardAuth;
  maintenance: MaintenanceSource;
  assets: Map<string, StaticAsset>;
  /** Set once listening: the Origin check needs it. */
  port: number;
  onInternal: (error: unknown) => void;
  onRefused: (refusal: Refusal) => void;
}

function notFound(res: ServerResponse, what: string, hint: string): void {
  sendJson(
    res,
    404,
    errorBody(new CairnError('NOT_FOUND', `Not found: ${what.slice(0, 100)}`, { hint })),
  );
}

function serveAsset(state: DashboardState, res: ServerResponse, path: string): void {
  const asset = state.assets.get(path === '/index.html' ? '/' : path);
  if (!asset) {
    notFound(res, path, 'open / for the dashboard');
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

/** The path with `%3A` and friends decoded once; a malformed escape is INVALID_INPUT. */
function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch (cause) {
    throw new CairnError('INVALID_INPUT', 'The request path has a malformed %-escape', {
      cause,
      hint: 'encode ids with encodeURIComponent; nothing was changed',
    });
  }
}

async function serveApi(
  state: DashboardState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  csrf: string,
) {
  const method = (req.method ?? 'GET') as Method;
  const path = decodedPath(url.pathname);
  if (method === 'GET' && path === '/api/session') {
    return sendJson(res, 200, { csrf, csrfHeader: CSRF_HEADER });
  }
  for (const route of ROUTES) {
    const match = route.path.exec(path);
    if (!match || route.method !== method) continue;
    const body = method === 'POST' || method === 'PUT' ? await readJsonBody(req) : undefined;
    const { cairn, maintenance } = state;
    const context = { cairn, maintenance, params: match.slice(1), query: url.searchParams, body };
    return sendJson(res, 200, (await route.handle(context)) ?? { ok: true });
  }
  notFound(res, `${method} ${url.pathname}`, 'see docs/DASHBOARD.md for the API');
}

async function serve(
  state: DashboardState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const verdict = guardRequest(state.auth, state.port, req, url.pathname);
  if (!verdict.ok) {
    state.onRefused(verdict.refusal);
    return sendJson(res, verdict.refusal.status, errorBody(verdict.error));
  }
  if (verdict.csrf !== undefined) return serveApi(state, req, res, url, verdict.csrf);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const error = new CairnError('INVALID_INPUT', 'Method not allowed', {
      hint: 'the pages are read with GET',
    });
    return sendJson(res, 405, errorBody(error), { allow: 'GET, HEAD' });
  }
  const auth = /^\/auth\/([A-Za-z0-9_-]{1,100})$/.exec(url.pathname);
  // Only a GET signs in: a HEAD (a link preview, a checker) must not use up the link.
  if (auth && req.method === 'GET') return signIn(state, res, auth[1]!);
  serveAsset(state, res, url.pathname);
}

/** The request listener: the guard, then the sign-in link, the API or the UI's files. */
export function dashboardHandler(state: DashboardState) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await serve(state, req, res);
    } catch (error) {
      // A body that was cut short leaves bytes on the socket: do not reuse it.
      if (CairnError.isInstance(error) && error.code === 'QUOTA_EXCEEDED')
        res.setHeader('connection', 'close');
      sendError(res, error, state.onInternal);
    }
  };
}

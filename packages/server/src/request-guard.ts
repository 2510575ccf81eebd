import type { IncomingMessage } from 'node:http';
import { CairnError, checkLocalOrigin } from '@cairn/core';
import { CSRF_HEADER, csrfMatches, type DashboardAuth, sessionCsrf } from './dashboard-auth';

/** A request the guard turned away, as `cairn ui` reports it on stderr. */
export interface Refusal {
  method: string;
  path: string;
  status: 401 | 403;
  reason: string;
  host?: string;
  origin?: string;
}

export type GuardVerdict =
  | { ok: true; csrf?: string }
  | { ok: false; refusal: Refusal; error: CairnError };

function refused(
  req: IncomingMessage,
  path: string,
  status: 401 | 403,
  error: CairnError,
): GuardVerdict {
  const { host, origin } = req.headers;
  const refusal: Refusal = {
    method: req.method ?? 'GET',
    path: path.slice(0, 200),
    status,
    reason: error.message,
    ...(host ? { host } : {}),
    ...(origin ? { origin } : {}),
  };
  return { ok: false, refusal, error };
}

/**
 * Every request: a loopback Host and, when sent, the server's own Origin
 * (the shared local guard). API requests also need the session cookie,
 * and writes the session's CSRF header.
 */
export function guardRequest(
  auth: DashboardAuth,
  port: number,
  req: IncomingMessage,
  path: string,
): GuardVerdict {
  const local = checkLocalOrigin(req.headers, port);
  if (!local.ok) {
    const hint = 'open the dashboard at the URL `cairn ui` printed';
    return refused(req, path, 403, new CairnError('INVALID_INPUT', local.message, { hint }));
  }
  if (!path.startsWith('/api/')) return { ok: true };
  const csrf = sessionCsrf(auth, req.headers);
  if (csrf === undefined) {
    const hint = 'open the one-time link `cairn ui` printed (restart it for a new one)';
    return refused(req, path, 401, new CairnError('INVALID_INPUT', 'Not signed in', { hint }));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD' && !csrfMatches(req.headers, csrf)) {
    const hint = `send the ${CSRF_HEADER} header that GET /api/session gives; nothing was changed`;
    return refused(
      req,
      path,
      403,
      new CairnError('INVALID_INPUT', 'Missing or wrong CSRF token', { hint }),
    );
  }
  return { ok: true, csrf };
}

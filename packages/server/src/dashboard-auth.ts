import type { IncomingHttpHeaders } from 'node:http';
import { CairnError, nodeCrypto, tokensEqual } from '@cairn/core';

/**
 * The session cookie's name, followed by the port: browsers keep cookies
 * per host, not per port, so two dashboards (two projects) need two names.
 * Its value is a random id only this server's memory knows.
 */
export const SESSION_COOKIE = 'cairn_ui';
/** The header every write must carry with the session's CSRF token. */
export const CSRF_HEADER = 'x-cairn-csrf';

/**
 * The dashboard's sign-in state for one launch: a launch token printed
 * once (in the URL `cairn ui` prints) that can be redeemed once, for a
 * session cookie (HttpOnly, SameSite=Strict) and its CSRF token. Nothing
 * is stored on disk: a restart signs everyone out.
 */
export interface DashboardAuth {
  /** `cairn_ui_<port>`, set once the server listens. */
  cookieName: string;
  readonly launchToken: string;
  launchUsed: boolean;
  /** Session id -> CSRF token. */
  readonly sessions: Map<string, string>;
}

const randomToken = () => nodeCrypto().randomBytes(32).toString('base64url');

export function createDashboardAuth(): DashboardAuth {
  return {
    cookieName: SESSION_COOKIE,
    launchToken: randomToken(),
    launchUsed: false,
    sessions: new Map(),
  };
}

/**
 * Redeems the launch token: the first correct use opens a session and
 * returns its Set-Cookie value; a second use, or a wrong token, is refused.
 */
export function redeemLaunchToken(auth: DashboardAuth, given: string): string {
  if (auth.launchUsed || !tokensEqual(given, auth.launchToken)) {
    throw new CairnError(
      'INVALID_INPUT',
      auth.launchUsed ? 'This sign-in link was already used' : 'This sign-in link is not valid',
      {
        hint: 'each `cairn ui` launch prints a link that works once: restart `cairn ui` and open the new link',
      },
    );
  }
  auth.launchUsed = true;
  const session = randomToken();
  auth.sessions.set(session, randomToken());
  return `${auth.cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** The CSRF token of the request's session, or undefined when it has no valid session cookie. */
export function sessionCsrf(auth: DashboardAuth, headers: IncomingHttpHeaders): string | undefined {
  const session = cookieValue(headers.cookie, auth.cookieName);
  if (!session) return undefined;
  for (const [id, csrf] of auth.sessions) {
    if (tokensEqual(session, id)) return csrf;
  }
  return undefined;
}

/** True when the write carries its session's CSRF token. */
export function csrfMatches(headers: IncomingHttpHeaders, csrf: string): boolean {
  const given = headers[CSRF_HEADER];
  return typeof given === 'string' && tokensEqual(given, csrf);
}

import type { IncomingHttpHeaders } from 'node:http';
import { nodeCrypto } from '../node-crypto';
import { isLoopbackHostHeader } from './loopback';

/**
 * The guard of Cairn's local HTTP servers (`cairn mcp --http`, `cairn ui`):
 * what every request must show before it reaches a route.
 */
export interface LocalHttpGuardOptions {
  /**
   * The bearer token every request must carry (`Authorization: Bearer …`).
   * `undefined` turns the token check off: only for `--no-auth`.
   */
  token: string | undefined;
  /** The port the server is bound to: its own origins are `http://127.0.0.1:<port>` and `http://localhost:<port>`. */
  port: number;
  /**
   * Serving a non-loopback host: the Host and Origin checks are off (the
   * server cannot know its public name); the token is still required.
   */
  allowRemote?: boolean;
}

export type LocalHttpVerdict =
  | { ok: true }
  | { ok: false; status: 401 | 403; message: string; headers: Record<string, string> };

const sha256 = (text: string) => nodeCrypto().createHash('sha256').update(text).digest();

/** Equal strings, compared in constant time (digests first, so the length leaks nothing either). */
export function tokensEqual(given: string, expected: string): boolean {
  return nodeCrypto().timingSafeEqual(sha256(given), sha256(expected));
}

function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

/** The origins a loopback server on `port` calls its own (what a browser sends as Origin). */
export function loopbackOrigins(port: number): Set<string> {
  return new Set(['127.0.0.1', 'localhost', '[::1]'].map((host) => `http://${host}:${port}`));
}

function forbidden(message: string): LocalHttpVerdict {
  return { ok: false, status: 403, message: `Forbidden: ${message}`, headers: {} };
}

/**
 * The Host and Origin half of the guard, for a server on a loopback port:
 * - Host must be loopback (a DNS-rebinding page sends its own name);
 * - Origin, when present (browsers send it), must be the server's own
 *   origin: any other page, `http://localhost:<other port>` included, is
 *   refused (403), so a page on another local dev server cannot post to it.
 */
export function checkLocalOrigin(headers: IncomingHttpHeaders, port: number): LocalHttpVerdict {
  if (!isLoopbackHostHeader(headers.host)) {
    return forbidden('only a loopback Host header is accepted');
  }
  const origin = headers.origin;
  if (origin !== undefined && !loopbackOrigins(port).has(origin.toLowerCase())) {
    return forbidden(`requests from the origin ${origin} are not accepted`);
  }
  return { ok: true };
}

/**
 * The guard of a bearer-token local server: returns a check of a request's
 * headers. Host and Origin as `checkLocalOrigin` (unless `allowRemote`),
 * then `Authorization: Bearer <token>` must match (401 otherwise), compared
 * in constant time: other local users can reach the port, not the token file.
 */
export function createLocalHttpGuard(options: LocalHttpGuardOptions) {
  const { token, port, allowRemote = false } = options;
  return (headers: IncomingHttpHeaders): LocalHttpVerdict => {
    if (!allowRemote) {
      const verdict = checkLocalOrigin(headers, port);
      if (!verdict.ok) return verdict;
    }
    if (token === undefined) return { ok: true };
    const given = bearerOf(headers);
    if (given === undefined || !tokensEqual(given, token)) {
      return {
        ok: false,
        status: 401,
        message:
          given === undefined
            ? 'Unauthorized: send Authorization: Bearer <token> (print it with `cairn mcp token`)'
            : 'Unauthorized: wrong token (print the current one with `cairn mcp token`)',
        headers: { 'www-authenticate': 'Bearer realm="cairn"' },
      };
    }
    return { ok: true };
  };
}

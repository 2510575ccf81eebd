import type { IncomingHttpHeaders } from 'node:http';

/** Names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127(?:\.\d{1,3}){3}$/.test(name);
}

function hostnameOf(value: string, scheme: string): string | undefined {
  try {
    return new URL(`${scheme}${value}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * DNS-rebinding guard for a loopback server: a web page that resolves its own
 * name to 127.0.0.1 still sends its name as Host and its origin as Origin,
 * so both must be loopback (Origin may be absent: non-browser clients).
 */
export function isLoopbackRequest(headers: IncomingHttpHeaders): boolean {
  const host = headers.host ? hostnameOf(headers.host, 'http://') : undefined;
  if (!host || !isLoopbackHost(host)) return false;
  const origin = headers.origin;
  if (origin === undefined) return true;
  const originHost = hostnameOf(origin, '');
  return originHost !== undefined && isLoopbackHost(originHost);
}

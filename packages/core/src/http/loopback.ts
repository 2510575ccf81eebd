/** Names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127(?:\.\d{1,3}){3}$/.test(name);
}

/**
 * DNS-rebinding guard for a loopback server: a web page that resolves its own
 * name to 127.0.0.1 still sends its name as Host, so the Host header
 * (`name[:port]`) must name a loopback host.
 */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  try {
    return isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

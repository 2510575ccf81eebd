import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CairnError } from '../errors';

/**
 * Starts `server` on `host:port` and resolves with the bound address (the
 * port a `0` picked included); rejects with the listen error (EADDRINUSE,
 * EACCES) instead of leaving it to an `error` event nobody awaits.
 */
export function listenOn(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Refuses anything but a whole TCP port number (0 asks the system for a free one). */
export function assertTcpPort(port: number): void {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CairnError('INVALID_INPUT', `Not a TCP port: ${port}`, {
      hint: 'use 0-65535 (0 picks a free port)',
    });
  }
}

import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { assertTcpPort, listenOn } from './listen-on';

describe('listenOn', () => {
  const servers: ReturnType<typeof createServer>[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
  });

  it('resolves with the port the system picked for 0', async () => {
    const server = createServer();
    servers.push(server);
    const address = await listenOn(server, 0, '127.0.0.1');
    expect(address.port).toBeGreaterThan(0);
    expect(server.listening).toBe(true);
  });

  it('rejects with the listen error when the port is taken', async () => {
    const first = createServer();
    const second = createServer();
    servers.push(first);
    const { port } = await listenOn(first, 0, '127.0.0.1');
    await expect(listenOn(second, port, '127.0.0.1')).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    expect(second.listening).toBe(false);
  });
});

describe('assertTcpPort', () => {
  it('takes 0 to 65535 and refuses the rest with INVALID_INPUT', () => {
    for (const port of [0, 80, 65535]) expect(() => assertTcpPort(port)).not.toThrow();
    for (const port of [-1, 65536, 1.5, Number.NaN]) {
      const error = (() => {
        try {
          assertTcpPort(port);
        } catch (caught) {
          return caught;
        }
      })();
      expect(CairnError.isInstance(error) && error.code).toBe('INVALID_INPUT');
    }
  });
});

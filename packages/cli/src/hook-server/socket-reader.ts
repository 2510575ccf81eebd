import type { Socket } from 'node:net';

/**
 * What one side of a hook-server connection has received (hook-protocol.ts):
 * lines first (the hello and the proof), then a message up to the end of
 * the peer's side. Nothing here waits on a clock: the caller's deadline
 * destroys the socket, which ends every read with undefined.
 */
export interface SocketReader {
  chunks: Buffer[];
  size: number;
  /** The peer ended its side (`end`), all of it received. */
  ended: boolean;
  /** The connection is gone: closed, failed, destroyed or past `maxBytes`. */
  closed: boolean;
  maxBytes: number;
  wake?: () => void;
}

export function readSocket(socket: Socket, maxBytes: number): SocketReader {
  const reader: SocketReader = { chunks: [], size: 0, ended: false, closed: false, maxBytes };
  const wake = () => reader.wake?.();
  socket.on('data', (chunk: Buffer) => {
    reader.size += chunk.length;
    if (reader.size > reader.maxBytes) socket.destroy();
    else reader.chunks.push(chunk);
    wake();
  });
  socket.on('end', () => {
    reader.ended = true;
    wake();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    reader.closed = true;
    wake();
  });
  return reader;
}

function waitForMore(reader: SocketReader): Promise<void> {
  return new Promise((resolve) => {
    reader.wake = () => {
      reader.wake = undefined;
      resolve();
    };
  });
}

/** The next line (without its newline), or undefined when none comes or it is longer than `maxBytes`. */
export async function nextLine(
  reader: SocketReader,
  maxBytes: number,
): Promise<string | undefined> {
  for (;;) {
    const received = Buffer.concat(reader.chunks);
    const newline = received.indexOf(10);
    if (newline >= 0 && newline <= maxBytes) {
      const rest = received.subarray(newline + 1);
      reader.chunks = [rest];
      reader.size = rest.length;
      return received.toString('utf8', 0, newline);
    }
    if (received.length > maxBytes || reader.ended || reader.closed) return undefined;
    reader.chunks = [received];
    await waitForMore(reader);
  }
}

/** Everything received until the peer ended its side, or undefined when the connection broke first. */
export async function untilEnd(reader: SocketReader): Promise<string | undefined> {
  while (!reader.ended && !reader.closed) await waitForMore(reader);
  return reader.ended && reader.size <= reader.maxBytes
    ? Buffer.concat(reader.chunks).toString('utf8')
    : undefined;
}

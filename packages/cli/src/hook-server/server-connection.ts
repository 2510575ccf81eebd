import { closeSync, openSync, readSync } from 'node:fs';
import { connect } from 'node:net';
import {
  type ControlRequest,
  HOOK_PROTOCOL_VERSION,
  type HookReply,
  type HookRequest,
  MAX_LINE_BYTES,
  MAX_MESSAGE_BYTES,
  nextLine,
  proofFor,
  readSocket,
  sameBytes,
  untilEnd,
} from './hook-protocol';

/** How a conversation with the hook server ended. */
export type ServerOutcome =
  /** The request was never sent: no server, one that did not prove it is the user's, or none in time. */
  | { kind: 'unproven'; why: 'absent' | 'silent' | 'impostor' }
  /** The request was sent and no reply came in time (the server may still run it). */
  | { kind: 'lost' }
  | { kind: 'reply'; reply: HookReply };

export interface ServerDeadlines {
  /** From the start: past it without a proof, the request is not sent. */
  proofMs: number;
  /** From the start: past it without a reply, the request is given up. */
  replyMs: number;
}

/** `size` random bytes as hex, from the kernel (node:crypto costs a hook 2 to 3 ms to load). */
function randomHex(size: number): string | undefined {
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      const bytes = Buffer.alloc(size);
      return readSync(fd, bytes, 0, size, null) === size ? bytes.toString('hex') : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** True when `line` proves knowledge of `key` for `hello`. */
function proven(line: string | undefined, key: Uint8Array, hello: string): boolean {
  const proof = parseJson(line)?.proof;
  if (typeof proof !== 'string') return false;
  return sameBytes(Buffer.from(proof, 'latin1'), Buffer.from(proofFor(key, hello), 'latin1'));
}

/**
 * Says hello to the server on `socket`, checks its proof against `key`
 * (hook-protocol.ts), and only then sends `request` and reads the reply.
 * Never rejects.
 */
export function askServer(
  socket: string,
  key: Uint8Array,
  request: HookRequest | ControlRequest,
  deadlines: ServerDeadlines,
): Promise<ServerOutcome> {
  return new Promise((resolve) => {
    let sent = false;
    let settled = false;
    const connection = connect(socket);
    const reader = readSocket(connection, MAX_MESSAGE_BYTES);
    const finish = (outcome: ServerOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(proofTimer);
      clearTimeout(replyTimer);
      connection.destroy();
      resolve(outcome);
    };
    const unsent = (why: 'absent' | 'silent' | 'impostor') => finish({ kind: 'unproven', why });
    const proofTimer = setTimeout(() => sent || unsent('silent'), deadlines.proofMs);
    const replyTimer = setTimeout(
      () => (sent ? finish({ kind: 'lost' }) : unsent('silent')),
      deadlines.replyMs,
    );
    connection.on('error', () => sent || unsent('absent'));
    connection.on('connect', async () => {
      const hello = randomHex(32);
      if (!hello) return unsent('absent');
      connection.write(`${JSON.stringify({ v: HOOK_PROTOCOL_VERSION, hello })}\n`);
      const line = await nextLine(reader, MAX_LINE_BYTES);
      if (settled) return;
      if (line === undefined) return unsent('silent');
      if (!proven(line, key, hello)) return unsent('impostor');
      sent = true;
      connection.end(`${JSON.stringify(request)}\n`);
      const reply = parseJson(await untilEnd(reader));
      finish(
        reply?.v === HOOK_PROTOCOL_VERSION
          ? { kind: 'reply', reply: reply as HookReply }
          : { kind: 'lost' },
      );
    });
  });
}

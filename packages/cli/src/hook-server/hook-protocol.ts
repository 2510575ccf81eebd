import type { Socket } from 'node:net';
import { runsProcessPerHook } from '../hook-process';
import type { PrereadStdin } from '../stdin-read';

/*
 * One exchange between a hook process (the client, in the launcher) and
 * the hook server over its Unix socket, one JSON line each:
 *
 *   client: {"v":2,"hello":"<32 random bytes, hex>"}
 *   server: {"v":2,"proof":"<HMAC-SHA-256 of the hello under the server key, hex>"}
 *   client: the request (an event, or `status` / `stop`), then it ends its side
 *   server: the reply
 *
 * The client checks the proof against the key file (server-socket.ts) before
 * it sends the request: a process on the socket that cannot prove it is
 * the user's server never sees the environment, folder or payload.
 */

export const HOOK_PROTOCOL_VERSION = 2;

export interface HookHello {
  v: typeof HOOK_PROTOCOL_VERSION;
  hello: string;
}

export interface HookProof {
  v: typeof HOOK_PROTOCOL_VERSION;
  proof: string;
}

/** An event: what the hook process would have run with. */
export interface HookRequest {
  v: typeof HOOK_PROTOCOL_VERSION;
  /** The command line after `cairn`: `hook <harness> <event> …` or `lifecycle <event> …`. */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: PrereadStdin;
}

/** `cairn hook-server status|stop`. */
export interface ControlRequest {
  v: typeof HOOK_PROTOCOL_VERSION;
  control: 'status' | 'stop';
}

/** What a running server says about itself (`cairn hook-server status`). */
export interface ServerStatus {
  pid: number;
  socket: string;
  node: string;
  startedAt: string;
  uptimeMs: number;
  /** Events answered since the start. */
  answered: number;
  /** Events received and not answered yet, by project. */
  pending: Record<string, number>;
  /** Projects kept open between events. */
  projects: string[];
}

/** What the process would have printed, and its exit code. */
export interface EventReply {
  v: typeof HOOK_PROTOCOL_VERSION;
  stdout: string;
  stderr: string;
  code: number;
  /** The server's process id (tests ask the client to say who answered). */
  pid: number;
}

export type HookReply =
  | EventReply
  /** The server will not run it (a command it does not serve): the client runs it itself. */
  | { v: typeof HOOK_PROTOCOL_VERSION; declined: string }
  | { v: typeof HOOK_PROTOCOL_VERSION; status: ServerStatus }
  | { v: typeof HOOK_PROTOCOL_VERSION; stopping: { pid: number } };

/** The commands the server runs: those bin.ts hands to the hook bundle. */
export function servedCommand(argv: readonly string[]): boolean {
  if (argv.includes('--help') || argv.includes('-h')) return false;
  if (argv[0] === 'lifecycle') return true;
  return argv[0] === 'hook' && runsProcessPerHook(argv[1]);
}

/** A request or reply is at most this long (32 MB of stdin, escaped, and the environment). */
export const MAX_MESSAGE_BYTES = 80 * 1024 * 1024;

/** A hello or a proof line is at most this long. */
export const MAX_LINE_BYTES = 1024;

/**
 * The proof that answers `hello` (32 bytes, hex) under `key`: HMAC-SHA-256
 * of a fixed prefix and the hello's bytes (four SHA-256 blocks in all).
 */
export function proofFor(key: Uint8Array, hello: string): string {
  const message = Buffer.concat([
    Buffer.from(`cairn hook server v${HOOK_PROTOCOL_VERSION}\n`, 'latin1'),
    Buffer.from(hello, 'hex'),
  ]);
  return Buffer.from(hmacSha256(key, message)).toString('hex');
}

/**
 * What an event answers when its answer cannot be had in time (it was
 * handed to the server, which may still run it): hooks print nothing and
 * exit 0, as the harness expects of a hook that fails open; `cairn
 * lifecycle` prints the empty result its fail-open promises (docs/HOOKS.md).
 */
export function failOpenReply(argv: readonly string[], reason: string, pid: number): EventReply {
  const failed = { code: 'BACKEND_UNAVAILABLE', message: reason };
  const stdout =
    argv[0] === 'lifecycle' ? `${JSON.stringify({ ok: true, inject: '', failed })}\n` : '';
  return {
    v: HOOK_PROTOCOL_VERSION,
    stdout,
    stderr: `cairn: ${reason}\n`,
    code: 0,
    pid,
  };
}

/**
 * What one side of a hook-server connection has received (the exchange above):
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

/*
 * HMAC-SHA-256 (RFC 2104 over FIPS 180-4) in plain JavaScript, for the
 * hook client's check that the hook server knows the user's key
 * (server-socket.ts). Loading `node:crypto` costs a hook process 2 to 3 ms,
 * more than the rest of the handshake together; hashing the few bytes of
 * one challenge here costs microseconds. The server, where node:crypto is
 * loaded anyway, uses it; a test checks that both agree.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/** One 64-byte block of `bytes`, at `offset`, folded into the state `h`. */
function compress(h: Int32Array, bytes: Uint8Array, offset: number, w: Int32Array): void {
  for (let i = 0; i < 16; i += 1) {
    const at = offset + i * 4;
    w[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  }
  for (let i = 16; i < 64; i += 1) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let hh = h[7]!;
  for (let i = 0; i < 64; i += 1) {
    const t1 =
      (hh +
        (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) +
        ((e & f) ^ (~e & g)) +
        K[i]! +
        w[i]!) |
      0;
    const t2 =
      ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) +
        ((a & b) ^ (a & c) ^ (b & c))) |
      0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + hh) | 0;
}

/** SHA-256 of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  const h = new Int32Array(INITIAL);
  const length = Math.ceil((data.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(data);
  padded[data.length] = 0x80;
  const bits = data.length * 8;
  const high = Math.floor(bits / 0x100000000);
  for (let i = 0; i < 4; i += 1) {
    padded[length - 8 + i] = (high >>> (24 - i * 8)) & 0xff;
    padded[length - 4 + i] = (bits >>> (24 - i * 8)) & 0xff;
  }
  const w = new Int32Array(64);
  for (let offset = 0; offset < length; offset += 64) compress(h, padded, offset, w);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i += 1) out[i] = (h[i >> 2]! >>> (24 - (i & 3) * 8)) & 0xff;
  return out;
}

/** HMAC-SHA-256 of `message` under `key`. */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i += 1) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/** True when `a` and `b` hold the same bytes; the time taken does not depend on where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

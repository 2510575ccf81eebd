import { runsProcessPerHook } from '../hook-process';
import type { PrereadStdin } from '../stdin-read';
import { hmacSha256 } from './hmac-sha256';

/*
 * One exchange between a hook process (the client, in the launcher) and
 * the hook server over its Unix socket, one JSON line each:
 *
 *   client: {"v":2,"hello":"<32 random bytes, hex>"}
 *   server: {"v":2,"proof":"<HMAC-SHA-256 of the hello under the server key, hex>"}
 *   client: the request (an event, or `status` / `stop`), then it ends its side
 *   server: the reply
 *
 * The client checks the proof against the key file (server-key.ts) before
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

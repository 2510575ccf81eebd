import { closeSync, constants, openSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, parse } from 'node:path';
import {
  clientTimeoutMs,
  MAX_PAYLOAD_BYTES,
  proofTimeoutMs,
  stdinTimeoutMs,
} from '../hook-process';
import {
  type PrereadStdin,
  type ReadStdinOptions,
  readRawStreamBounded,
  StdinLimit,
  stdinWithoutStream,
} from '../stdin-read';
import {
  type ControlRequest,
  type EventReply,
  failOpenReply,
  HOOK_PROTOCOL_VERSION,
  type HookReply,
  type HookRequest,
  MAX_LINE_BYTES,
  MAX_MESSAGE_BYTES,
  nextLine,
  proofFor,
  readSocket,
  sameBytes,
  servedCommand,
  untilEnd,
} from './hook-protocol';
import { readServerKey } from './server-socket';

/*
 * The hook client, in the launcher: one conversation with the hook server
 * (`askServer`: its proof checked before anything is sent, then the
 * request and the reply), and the handing over of a hook event to it, the
 * server started when none runs (`handToHookServer`). The server asks a
 * running server through `askServer` too (`cairn hook-server status|stop`).
 */

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

/** What the launcher does next: nothing (the server answered), or run the command itself. */
export type ClientOutcome = { served: true } | { served: false; preread?: PrereadStdin };

/** A start marker older than this is a server that failed to start: another may try. */
const START_MARKER_MS = 10_000;

function stdinLimits(argv: readonly string[], env: NodeJS.ProcessEnv): ReadStdinOptions {
  return argv[0] === 'hook' ? { maxBytes: MAX_PAYLOAD_BYTES, timeoutMs: stdinTimeoutMs(env) } : {};
}

/**
 * Stdin read ahead, as the command would have read it. A socket (what a
 * Node harness such as Claude Code hands its hooks) is read as a stream:
 * node:net, which the client loads anyway, brings the stream machinery.
 */
async function readAhead(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<PrereadStdin> {
  const direct = stdinWithoutStream();
  if (direct === 'terminal' || (direct === 'stream' && process.stdin.isTTY))
    return { terminal: true };
  const limits = stdinLimits(argv, env);
  const read =
    direct === 'stream' ? () => readRawStreamBounded(process.stdin, limits) : () => direct(limits);
  try {
    return { text: await read() };
  } catch (error) {
    if (!(error instanceof StdinLimit)) throw error;
    return { limit: { kind: error.kind, value: error.limit } };
  }
}

/**
 * Starts the server in the background for the next events, unless one is
 * being started: the marker file, created exclusively, lets one client of
 * many that found no server start it.
 */
function startServer(socket: string, launcher: string): void {
  const marker = `${socket}.starting`;
  try {
    const age = Date.now() - (statSync(marker, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (age < START_MARKER_MS) return;
    try {
      unlinkSync(marker);
    } catch {
      // Another client took the stale marker away first.
    }
    closeSync(openSync(marker, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
    const { spawn } = process.getBuiltinModule(
      'node:child_process',
    ) as typeof import('node:child_process');
    const child = spawn(process.execPath, [launcher, 'hook-server'], {
      // A daemon holds no project (or home) folder busy; each event names its own.
      cwd: parse(launcher).root,
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No server this time: the event is answered in this process.
  }
}

function print(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch {
    // The reader is gone (EPIPE), as a process stream would swallow.
  }
}

function printReply(reply: EventReply): void {
  print(1, reply.stdout);
  print(2, reply.stderr);
  process.exitCode = reply.code;
}

function requestOf(argv: string[], preread: PrereadStdin): HookRequest {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  return { v: HOOK_PROTOCOL_VERSION, argv, cwd: process.cwd(), env, stdin: preread };
}

/**
 * Hands a hook or lifecycle event to the hook server (hook-server.ts) when
 * one is running for this build and user (`socket`), so the event is
 * answered by a warm process instead of loading Cairn in this one. Stdin
 * is read here first, with the command's own limits, and handed on either
 * way. The request (environment, folder, payload) goes only to a server
 * that proves it knows the user's key (server-socket.ts); until it has been
 * sent, anything wrong (no server, one that cannot prove it, none within
 * the proof deadline) makes the event run here, and a server is started
 * for the next events. Once sent, the server owns the event: if no reply
 * comes within the client's deadline (hook-process.ts), this process fails
 * open rather than run it a second time.
 */
export async function handToHookServer(
  argv: string[],
  socket: string | undefined,
  launcher: string,
): Promise<ClientOutcome> {
  if (!socket || !servedCommand(argv)) return { served: false };
  const preread = await readAhead(argv, process.env);
  const key = readServerKey(dirname(socket));
  if (!key) {
    startServer(socket, launcher);
    return { served: false, preread };
  }
  const replyMs = clientTimeoutMs(argv, process.env);
  const outcome = await askServer(socket, key, requestOf(argv, preread), {
    proofMs: proofTimeoutMs(replyMs),
    replyMs,
  });
  if (outcome.kind === 'unproven') {
    if (outcome.why === 'impostor')
      print(
        2,
        `cairn: warning: the process on ${socket} did not prove it is your hook server; nothing was sent to it, the event runs here\n`,
      );
    startServer(socket, launcher);
    return { served: false, preread };
  }
  if (outcome.kind === 'reply' && 'declined' in outcome.reply) return { served: false, preread };
  if (outcome.kind === 'reply' && 'code' in outcome.reply) {
    printReply(outcome.reply);
    if (process.env.CAIRN_TEST_HOOK_SERVER_TRACE === '1')
      print(2, `cairn: answered by hook server ${outcome.reply.pid}\n`);
    return { served: true };
  }
  printReply(
    failOpenReply(
      argv,
      `the hook server did not answer within ${replyMs} ms; the event was handed to it and is not run twice (see docs/HOOKS.md)`,
      0,
    ),
  );
  return { served: true };
}

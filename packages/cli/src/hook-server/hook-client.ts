import { closeSync, constants, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
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
  type EventReply,
  failOpenReply,
  HOOK_PROTOCOL_VERSION,
  type HookRequest,
  servedCommand,
} from './hook-protocol';
import { askServer } from './server-connection';
import { readServerKey } from './server-key';

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
 * that proves it knows the user's key (server-key.ts); until it has been
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

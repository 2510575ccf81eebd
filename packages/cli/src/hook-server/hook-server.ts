import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import * as z from 'zod/mini';
import {
  HOOK_PROTOCOL_VERSION,
  type HookReply,
  type HookRequest,
  MAX_MESSAGE_BYTES,
  servedCommand,
} from './hook-protocol';

/** How long the server waits for an event before it exits (`CAIRN_HOOK_SERVER_IDLE_MS` overrides). */
const DEFAULT_IDLE_MS = 10 * 60 * 1000;
/** How often the server checks that its socket is still there (a wiped cache, a test's HOME removed). */
const WATCH_MS = 2_000;

const requestSchema = z.object({
  v: z.literal(HOOK_PROTOCOL_VERSION),
  argv: z.array(z.string()).check(z.maxLength(64)),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  stdin: z.union([
    z.object({ text: z.string() }),
    z.object({ terminal: z.literal(true) }),
    z.object({ limit: z.object({ kind: z.enum(['timeout', 'too-large']), value: z.number() }) }),
  ]),
});

export interface HookServerOptions {
  socket: string;
  env: NodeJS.ProcessEnv;
  /** Runs one event as the process that read it would have. */
  run(request: HookRequest): Promise<Extract<HookReply, { code: number }>>;
  /** Closes what the events opened (the kept projects). */
  close(): void;
}

function idleMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.CAIRN_HOOK_SERVER_IDLE_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_IDLE_MS;
}

/** True when a server answers on `socket` (then this one is not needed). */
function answering(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    probe.on('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });
}

/** Reads one request line; undefined when it is not one the server runs. */
function readRequest(connection: Socket): Promise<HookRequest | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    connection.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_MESSAGE_BYTES) {
        connection.destroy();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    connection.on('error', () => resolve(undefined));
    connection.on('end', () => {
      try {
        const parsed = z.safeParse(
          requestSchema,
          JSON.parse(Buffer.concat(chunks).toString('utf8')),
        );
        resolve(parsed.success ? (parsed.data as HookRequest) : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

/**
 * The hook server: answers the hook and lifecycle events of the processes
 * Claude Code, Codex and `cairn lifecycle` start (hook-client.ts hands them
 * over), one at a time, with projects kept open between events. It listens
 * on a Unix socket in a folder only its user can enter, runs nothing but
 * those two commands, exits when idle or when its socket is removed, and
 * gives way to a server already answering on the socket.
 */
export async function serveHooks(options: HookServerOptions): Promise<void> {
  const { socket } = options;
  if (await answering(socket)) return;
  try {
    unlinkSync(socket); // A socket left by a server that died.
  } catch {
    // None there.
  }
  let queue: Promise<unknown> = Promise.resolve();
  let idle: NodeJS.Timeout | undefined;
  let stopping = false;
  // Half-open: the client ends its side once the request is sent, and the
  // reply is written after that.
  const server: Server = createServer({ allowHalfOpen: true }, (connection) => {
    clearTimeout(idle);
    queue = queue.then(() => answer(connection)).finally(armIdle);
  });
  const answer = async (connection: Socket) => {
    const request = await readRequest(connection);
    let reply: HookReply;
    if (!request) reply = { v: HOOK_PROTOCOL_VERSION, declined: 'not a hook request' };
    else if (!servedCommand(request.argv))
      reply = { v: HOOK_PROTOCOL_VERSION, declined: `not served: ${request.argv[0]}` };
    else reply = await options.run(request);
    connection.end(`${JSON.stringify(reply)}\n`);
  };
  const stop = () => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    clearTimeout(idle);
    server.close();
    // New clients find no server (and start one) rather than a socket nobody answers.
    if (lstatSync(socket, { throwIfNoEntry: false })?.ino === ino) unlinkSync(socket);
    void queue.finally(() => {
      options.close();
      process.exit(0);
    });
  };
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(stop, idleMs(options.env));
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  chmodSync(socket, 0o600);
  try {
    unlinkSync(`${socket}.starting`);
  } catch {
    // Started by hand, or the marker is gone already.
  }
  const { ino } = lstatSync(socket);
  const watch = setInterval(() => {
    const now = lstatSync(socket, { throwIfNoEntry: false });
    if (now?.ino !== ino) stop();
  }, WATCH_MS);
  armIdle();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

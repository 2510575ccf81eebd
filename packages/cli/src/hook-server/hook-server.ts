import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import * as z from 'zod/mini';
import { askServer } from './hook-client';
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
  servedCommand,
  untilEnd,
} from './hook-protocol';
import { createProjectQueues, type ProjectQueues, runInOrder } from './project-queues';
import { ensureServerKey } from './server-socket';

/** How long the server waits for an event before it exits (`CAIRN_HOOK_SERVER_IDLE_MS` overrides). */
const DEFAULT_IDLE_MS = 10 * 60 * 1000;
/** From connect to a whole request (`CAIRN_HOOK_SERVER_READ_MS`): a client stopped mid-request is dropped. */
const DEFAULT_READ_MS = 5_000;
/** From arrival to the reply (`CAIRN_HOOK_SERVER_EVENT_MS`); past it the event's project moves on. */
const DEFAULT_EVENT_MS = 30_000;
/** How often the server checks that its socket is still there (a wiped cache, a test's HOME removed). */
const WATCH_MS = 2_000;
/** How long a starting server waits for one already on the socket to prove itself. */
const PROBE_MS = 1_000;

/* The hook server's reading of what a client sends (hook-protocol.ts), with zod. */

const eventSchema = z.object({
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
const controlSchema = z.object({
  v: z.literal(HOOK_PROTOCOL_VERSION),
  control: z.enum(['status', 'stop']),
});
const helloSchema = z.object({
  v: z.literal(HOOK_PROTOCOL_VERSION),
  hello: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});

function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

/** The challenge of a client's hello line (hex), or undefined when the line is not one. */
export function parseHello(line: string | undefined): string | undefined {
  const hello = z.safeParse(helloSchema, parseJson(line));
  return hello.success ? hello.data.hello : undefined;
}

/** An event or a control request, or undefined when the text is neither. */
export function parseRequest(text: string | undefined): HookRequest | ControlRequest | undefined {
  const value = parseJson(text);
  const control = z.safeParse(controlSchema, value);
  if (control.success) return control.data as ControlRequest;
  const event = z.safeParse(eventSchema, value);
  return event.success ? (event.data as HookRequest) : undefined;
}

export interface HookServerOptions {
  socket: string;
  env: NodeJS.ProcessEnv;
  /** Runs one event as the process that read it would have. */
  run(request: HookRequest): Promise<EventReply>;
  /** The project an event belongs to: one project's events run in order, different projects' at once. */
  projectOf(request: HookRequest): string;
  /** The projects kept open between events (for `status`). */
  openProjects(): string[];
  /** Closes what the events opened (the kept projects), before the server exits. */
  close(): void | Promise<void>;
}

interface ServerState {
  options: HookServerOptions;
  key: Buffer;
  server: Server;
  queues: ProjectQueues;
  startedAt: Date;
  answered: number;
  /** Connections open now; the idle clock runs only at zero. */
  open: number;
  idle?: NodeJS.Timeout;
  watch?: NodeJS.Timeout;
  ino?: number;
  stopping: boolean;
}

function millis(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const declined = (why: string): HookReply => ({ v: HOOK_PROTOCOL_VERSION, declined: why });

function statusReply(state: ServerState): HookReply {
  const { socket } = state.options;
  return {
    v: HOOK_PROTOCOL_VERSION,
    status: {
      pid: process.pid,
      socket,
      node: process.version,
      startedAt: state.startedAt.toISOString(),
      uptimeMs: Date.now() - state.startedAt.getTime(),
      answered: state.answered,
      pending: Object.fromEntries(state.queues.pending),
      projects: state.options.openProjects(),
    },
  };
}

/** Runs an event in its project's queue; past the event deadline the client gets the fail-open reply. */
async function runEvent(state: ServerState, request: HookRequest): Promise<HookReply> {
  const { options } = state;
  if (!servedCommand(request.argv)) return declined(`not served: ${request.argv[0]}`);
  // A stopping server takes no new event: the client runs it itself.
  if (state.stopping) return declined('the hook server is stopping');
  let project: string;
  try {
    project = options.projectOf(request);
  } catch {
    project = request.cwd;
  }
  const eventMs = millis(options.env, 'CAIRN_HOOK_SERVER_EVENT_MS', DEFAULT_EVENT_MS);
  const outcome = await runInOrder(state.queues, project, () => options.run(request), eventMs);
  state.answered += 1;
  if (outcome.done) return outcome.value;
  const reason =
    outcome.failed === undefined
      ? `the hook server did not finish this event within ${eventMs} ms; it goes on in the server (docs/HOOKS.md)`
      : `the hook server failed on this event: ${String(outcome.failed)}`;
  return failOpenReply(request.argv, reason, process.pid);
}

async function answer(
  state: ServerState,
  request: HookRequest | ControlRequest,
): Promise<HookReply> {
  if (!('control' in request)) return runEvent(state, request);
  if (request.control === 'status') return statusReply(state);
  stop(state);
  return { v: HOOK_PROTOCOL_VERSION, stopping: { pid: process.pid } };
}

/**
 * One connection: the client's hello gets the proof that this server holds
 * the user's key, then its request is read (whole within the read
 * deadline, or the connection is dropped), answered and the reply written.
 */
async function serveConnection(state: ServerState, connection: Socket): Promise<void> {
  const readMs = millis(state.options.env, 'CAIRN_HOOK_SERVER_READ_MS', DEFAULT_READ_MS);
  const reader = readSocket(connection, MAX_MESSAGE_BYTES);
  const readTimer = setTimeout(() => connection.destroy(), readMs);
  // The reply written, a client that does not close its side (stopped) is closed for it.
  const reply = (message: HookReply) => {
    connection.end(`${JSON.stringify(message)}\n`);
    const timer = setTimeout(() => connection.destroy(), readMs);
    connection.once('close', () => clearTimeout(timer));
  };
  try {
    const hello = parseHello(await nextLine(reader, MAX_LINE_BYTES));
    if (!hello) {
      reply(declined('no hello: not a hook client'));
      return;
    }
    const proof = proofFor(state.key, hello);
    connection.write(`${JSON.stringify({ v: HOOK_PROTOCOL_VERSION, proof })}\n`);
    const text = await untilEnd(reader);
    clearTimeout(readTimer);
    if (text === undefined) return;
    const request = parseRequest(text);
    const answered = request ? await answer(state, request) : declined('not a hook request');
    if (!connection.destroyed) reply(answered);
  } finally {
    clearTimeout(readTimer);
  }
}

/** Starts the idle clock, unless it runs already or a connection or an event is open. */
function armIdle(state: ServerState): void {
  if (state.idle || state.stopping || state.open > 0 || state.queues.running.size > 0) return;
  state.idle = setTimeout(
    () => stop(state),
    millis(state.options.env, 'CAIRN_HOOK_SERVER_IDLE_MS', DEFAULT_IDLE_MS),
  );
}

function disarmIdle(state: ServerState): void {
  clearTimeout(state.idle);
  state.idle = undefined;
}

/** Resolves once no connection is open and every accepted event is done, or after `capMs`. */
async function quiet(state: ServerState, capMs: number): Promise<void> {
  const cap = Date.now() + capMs;
  while ((state.open > 0 || state.queues.running.size > 0) && Date.now() < cap) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Stops taking connections and removes the socket (new clients find no
 * server, and start one, rather than a socket nobody answers), then exits
 * once the replies are written and the events it accepted are done (at
 * most one event deadline).
 */
function stop(state: ServerState): void {
  if (state.stopping) return;
  state.stopping = true;
  clearInterval(state.watch);
  disarmIdle(state);
  state.server.close();
  const { socket, env } = state.options;
  try {
    if (lstatSync(socket, { throwIfNoEntry: false })?.ino === state.ino) unlinkSync(socket);
  } catch {
    // Gone already.
  }
  void quiet(state, millis(env, 'CAIRN_HOOK_SERVER_EVENT_MS', DEFAULT_EVENT_MS))
    .then(() => state.options.close())
    .catch(() => undefined)
    .then(() => process.exit(0));
}

/** True when a server on `socket` proves it holds `key` (then this one is not needed). */
async function provenServer(socket: string, key: Buffer): Promise<boolean> {
  const outcome = await askServer(
    socket,
    key,
    { v: HOOK_PROTOCOL_VERSION, control: 'status' },
    { proofMs: PROBE_MS, replyMs: PROBE_MS * 2 },
  );
  return outcome.kind === 'reply';
}

/** Listens on the socket, born 0600: the umask holds until the bind is done. */
async function listen(server: Server, socket: string): Promise<void> {
  const umask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(socket, 0o600);
}

/**
 * The hook server: answers the hook and lifecycle events of the processes
 * Claude Code, Codex and `cairn lifecycle` start (hook-client.ts hands them
 * over), with projects kept open between events; one project's events in
 * order, different projects' at the same time. It listens on a Unix socket
 * in a folder only its user can enter, proves to each client that it holds
 * the user's key before the client sends anything, runs nothing but those
 * two commands, and exits when idle, when its socket is removed or on
 * `cairn hook-server stop`. A server already answering on the socket is
 * left alone; one that cannot prove itself (stopped, wedged) is replaced.
 */
export async function serveHooks(options: HookServerOptions): Promise<void> {
  const { socket } = options;
  const { randomBytes } = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  const key = ensureServerKey(dirname(socket), randomBytes);
  if (!key || (await provenServer(socket, key))) return;
  try {
    unlinkSync(socket); // A socket left by a server that died, or one that cannot answer.
  } catch {
    // None there.
  }
  const state: ServerState = {
    options,
    key,
    queues: createProjectQueues(),
    startedAt: new Date(),
    answered: 0,
    open: 0,
    stopping: false,
    // Half-open: the client ends its side once the request is sent, and the reply is written after that.
    server: createServer({ allowHalfOpen: true }, (connection) => {
      state.open += 1;
      disarmIdle(state);
      connection.on('close', () => {
        state.open -= 1;
        armIdle(state);
      });
      serveConnection(state, connection).catch(() => connection.destroy());
    }),
  };
  await listen(state.server, socket);
  try {
    unlinkSync(`${socket}.starting`);
  } catch {
    // Started by hand, or the marker is gone already.
  }
  state.ino = lstatSync(socket).ino;
  state.watch = setInterval(() => {
    if (lstatSync(socket, { throwIfNoEntry: false })?.ino !== state.ino) stop(state);
    // An event that outlived its deadline has finished since: the idle clock may start.
    else armIdle(state);
  }, WATCH_MS);
  armIdle(state);
  process.once('SIGTERM', () => stop(state));
  process.once('SIGINT', () => stop(state));
}

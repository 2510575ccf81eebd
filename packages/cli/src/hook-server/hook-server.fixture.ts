/**
 * What the hook server's tests share (tests only): a temp project with one
 * unit, a cache folder of the test's own (so each test gets its own
 * server), the built CLI, and a way to talk to the server as a client does.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, expect } from 'vitest';
import { type CliRun, cliRunner } from '../test-cli';
import { askServer, type ServerOutcome } from './hook-client';
import {
  type ControlRequest,
  HOOK_PROTOCOL_VERSION,
  type HookRequest,
  type ServerStatus,
} from './hook-protocol';
import { readServerKey } from './server-socket';

export async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface HookServerTest {
  project(): TempProject;
  cache(): string;
  cli: ReturnType<typeof cliRunner>;
  /** The hook server on, in this test's cache folder, and the client saying who answered. */
  serverEnv(): NodeJS.ProcessEnv;
  socketDir(): string;
  sockets(): string[];
  /** The one socket of this test's server. */
  socket(): string;
  /** A UserPromptSubmit payload of Claude Code for the project (or `root`). */
  prompt(sessionId: string, text?: string, root?: string): string;
  /** The server that answered a run, or undefined when the run answered itself. */
  answeredBy(run: CliRun): number | undefined;
  /** Starts the server with a first event (answered in that process) and waits for its socket. */
  startServer(env?: NodeJS.ProcessEnv): Promise<void>;
  hook(sessionId: string, env?: NodeJS.ProcessEnv, text?: string): CliRun;
  /** `hook`, without blocking this process (for servers that run in the test). */
  hookAsync(sessionId: string, env?: NodeJS.ProcessEnv, text?: string): Promise<CliRun>;
  /** Kills this pid after the test (a server, a child). */
  track(pid: number): void;
}

/** Sets up each test of the calling file; returns what the tests use. */
export function useHookServer(): HookServerTest {
  let project: TempProject;
  let cache = '';
  const pids = new Set<number>();
  const cli = cliRunner(() => project.root);
  const serverEnv = () => ({
    CAIRN_HOOK_SERVER: 'on',
    XDG_CACHE_HOME: cache,
    CAIRN_TEST_HOOK_SERVER_TRACE: '1',
  });
  beforeEach(async () => {
    project = await makeTempProject();
    // Short: a Unix socket path must fit in about 100 bytes.
    cache = join(tmpdir(), `chs-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
    expect(cli.run(['init']).code).toBe(0);
    expect(cli.run(['add', 'Deploys go through the kestrel pipeline on Fridays.']).code).toBe(0);
  });
  afterEach(async () => {
    // Every server still answering goes with SIGKILL: a server that exits on its own writes
    // its code cache on the way out, which would make the removed cache folder again.
    for (const name of sockets()) {
      const outcome = await ask(join(socketDir(), name), STATUS, 500);
      if (outcome.kind === 'reply' && 'status' in outcome.reply) pids.add(outcome.reply.status.pid);
    }
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGCONT');
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    pids.clear();
    rmSync(cache, { recursive: true, force: true });
    await project.cleanup();
  });
  const socketDir = () => join(cache, 'cairn', 'hooks');
  const sockets = () =>
    existsSync(socketDir())
      ? readdirSync(socketDir()).filter((name) => name.endsWith('.sock'))
      : [];
  const prompt = (
    sessionId: string,
    text = 'when do deploys go out through kestrel',
    root?: string,
  ) =>
    JSON.stringify({
      session_id: sessionId,
      transcript_path: join(root ?? project.root, 'transcript.jsonl'),
      cwd: root ?? project.root,
      hook_event_name: 'UserPromptSubmit',
      prompt: text,
    });
  const answeredBy = (run: CliRun) => {
    const pid = /answered by hook server (\d+)/.exec(run.stderr)?.[1];
    if (pid) pids.add(Number(pid));
    return pid ? Number(pid) : undefined;
  };
  const hook = (sessionId: string, env: NodeJS.ProcessEnv = {}, text?: string) =>
    cli.run(['hook', 'claude-code', 'UserPromptSubmit'], prompt(sessionId, text), {
      ...serverEnv(),
      ...env,
    });
  const hookAsync = (sessionId: string, env: NodeJS.ProcessEnv = {}, text?: string) =>
    cliRunner(() => project.root, { ...serverEnv(), ...env }).start(
      ['hook', 'claude-code', 'UserPromptSubmit'],
      prompt(sessionId, text),
    );
  return {
    project: () => project,
    cache: () => cache,
    cli,
    serverEnv,
    socketDir,
    sockets,
    socket: () => join(socketDir(), sockets()[0]!),
    prompt,
    answeredBy,
    hook,
    hookAsync,
    track: (pid) => pids.add(pid),
    async startServer(env = {}) {
      const first = hook('s-start', env);
      expect(first.code).toBe(0);
      expect(answeredBy(first)).toBeUndefined();
      await until(() => sockets().length === 1, 'the hook server socket');
      // The socket is bound a moment before the server listens on it.
      const status = await serverStatus(join(socketDir(), sockets()[0]!));
      pids.add(status.pid);
    },
  };
}

const STATUS = { v: HOOK_PROTOCOL_VERSION, control: 'status' } as const;

/** Talks to the server on `socket` as a client does (the key read from its folder). */
export function ask(
  socket: string,
  request: HookRequest | ControlRequest,
  timeoutMs = 20_000,
): Promise<ServerOutcome> {
  const key = readServerKey(dirname(socket));
  if (!key) return Promise.resolve({ kind: 'unproven', why: 'absent' });
  return askServer(socket, key, request, { proofMs: timeoutMs, replyMs: timeoutMs });
}

/** What the server on `socket` says about itself, once it answers (within 20 s). */
export async function serverStatus(socket: string): Promise<ServerStatus> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    // Short tries: a stopped server on the socket holds each try to its deadline.
    const outcome = await ask(socket, STATUS, 1_000);
    if (outcome.kind === 'reply' && 'status' in outcome.reply) return outcome.reply.status;
    if (Date.now() > deadline) throw new Error(`no hook server answers on ${socket}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An event as the client sends it, run in `root` with the test CLI's environment. */
export function eventRequest(
  argv: string[],
  root: string,
  stdin: string,
  env: NodeJS.ProcessEnv,
): HookRequest {
  const defined = Object.fromEntries(
    Object.entries({
      PATH: process.env.PATH,
      HOME: join(root, 'home'),
      XDG_CONFIG_HOME: join(root, 'home', '.config'),
      ...env,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { v: HOOK_PROTOCOL_VERSION, argv, cwd: root, env: defined, stdin: { text: stdin } };
}

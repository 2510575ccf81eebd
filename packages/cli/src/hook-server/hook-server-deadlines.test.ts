import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLineageStore } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { cliRunner } from '../test-cli';
import { HOOK_PROTOCOL_VERSION, proofFor } from './hook-protocol';
import {
  alive,
  ask,
  eventRequest,
  serverStatus,
  until,
  useHookServer,
} from './hook-server.fixture';
import { readServerKey } from './server-socket';

const t = useHookServer();
const cliDir = fileURLToPath(new URL('../..', import.meta.url));

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A second project, `init`ed, removed after the test. */
async function otherProject(): Promise<TempProject> {
  const other = await makeTempProject();
  cleanups.push(() => other.cleanup());
  expect(cliRunner(() => other.root).run(['init']).code).toBe(0);
  return other;
}

const memoryLock = (root: string) => join(root, '.cairn', 'state', 'locks', 'memory-md.lock');

const sessionEnd = (root: string, sessionId: string) =>
  JSON.stringify({
    session_id: sessionId,
    transcript_path: join(root, 'transcript.jsonl'),
    cwd: root,
    hook_event_name: 'SessionEnd',
    reason: 'exit',
  });

/** A live process holding `lock` through core's withFileLock until it is killed. */
async function holdLock(lock: string): Promise<ChildProcess> {
  mkdirSync(dirname(lock), { recursive: true });
  const script = [
    "import { withFileLock } from '@cairn/core';",
    'setInterval(() => {}, 1 << 30);',
    "await withFileLock(process.argv[1], () => { process.stdout.write('held\\n'); return new Promise(() => {}); });",
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, lock], {
    cwd: cliDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => child.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.on('exit', () => reject(new Error('the lock holder exited')));
  });
  return child;
}

describe('the hook server under load: one project never stalls another', () => {
  it('answers project B’s prompt while project A’s session end waits on a lock a live process holds', async () => {
    const a = await otherProject();
    await t.startServer();
    const socket = t.socket();
    const holder = await holdLock(memoryLock(a.root));
    let aSettled = false;
    const aReply = ask(
      socket,
      eventRequest(
        ['hook', 'claude-code', 'SessionEnd'],
        a.root,
        sessionEnd(a.root, 's-a'),
        t.serverEnv(),
      ),
      60_000,
    ).finally(() => {
      aSettled = true;
    });
    // A is in the server, waiting for the lock.
    for (;;) {
      const status = await serverStatus(socket);
      if (status.pending[a.root] === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const b = await t.hookAsync('s-b');
    expect(b.code).toBe(0);
    expect(t.answeredBy(b)).toBeGreaterThan(0);
    expect(b.stdout).toContain('kestrel pipeline');
    expect(aSettled).toBe(false);
    // The holder dies: A takes the lock over and ends its session.
    holder.kill('SIGKILL');
    const outcome = await aReply;
    expect(outcome.kind).toBe('reply');
    expect(outcome.kind === 'reply' && 'code' in outcome.reply && outcome.reply.code).toBe(0);
    expect(existsSync(memoryLock(a.root))).toBe(false);
  });

  it('drops a client that stops mid-request, and answers the others meanwhile', async () => {
    // The default read deadline (5 s): room for the other client on a loaded machine.
    await t.startServer();
    const socket = t.socket();
    // Stopped like a hook process stopped with Ctrl-Z: one before its hello ends, one
    // after the proof, in the middle of its request.
    const stall = async (proven: boolean) => {
      const connection: Socket = connect(socket);
      connection.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => connection.on('close', () => resolve()));
      await new Promise<void>((resolve) => connection.on('connect', () => resolve()));
      if (!proven) connection.write('{"v":2,"hel');
      else {
        const hello = 'ab'.repeat(32);
        connection.write(`${JSON.stringify({ v: HOOK_PROTOCOL_VERSION, hello })}\n`);
        const key = readServerKey(dirname(socket))!;
        const proof = await new Promise<string>((resolve) => {
          connection.once('data', (chunk: Buffer) => resolve(chunk.toString()));
        });
        expect(JSON.parse(proof)).toEqual({ v: 2, proof: proofFor(key, hello) });
        connection.write('{"v":2,"argv":["hook","claude-code"');
      }
      let dropped = false;
      void closed.then(() => {
        dropped = true;
      });
      return { closed, dropped: () => dropped };
    };
    const stalled = [await stall(false), await stall(true)];
    const run = await t.hookAsync('s-beside-stalled');
    expect(run.code).toBe(0);
    expect(t.answeredBy(run)).toBeGreaterThan(0);
    expect(run.stdout).toContain('kestrel pipeline');
    expect(stalled.map((s) => s.dropped())).toEqual([false, false]);
    // Past the read deadline the server drops them.
    await Promise.all(stalled.map((s) => s.closed));
  });

  it('still answers a hook, in its own process, when the server is stopped (kill -STOP)', async () => {
    await t.startServer();
    const { pid } = await serverStatus(t.socket());
    process.kill(pid, 'SIGSTOP');
    cleanups.push(() => alive(pid) && process.kill(pid, 'SIGCONT'));
    const run = t.hook('s-stopped', { CAIRN_HOOK_CLIENT_TIMEOUT_MS: '2000' });
    expect(run.code).toBe(0);
    expect(t.answeredBy(run)).toBeUndefined();
    expect(run.stdout).toContain('kestrel pipeline');
    // The server that hook started replaces the stopped one, which exits once it runs again.
    const replaced = await serverStatus(t.socket());
    t.track(replaced.pid);
    expect(replaced.pid).not.toBe(pid);
    process.kill(pid, 'SIGCONT');
    await until(() => !alive(pid), 'the replaced server to exit');
  });

  it('fails open, and never runs the event a second time, when the server took it and does not answer', async () => {
    await t.startServer();
    const socket = t.socket();
    const { pid } = await serverStatus(socket);
    process.kill(pid, 'SIGKILL');
    await until(() => !alive(pid), 'the server to die');
    const key = readServerKey(dirname(socket))!;
    // A server that proves itself, takes the request and never answers (a wedged handler).
    const requests: string[] = [];
    unlinkSync(socket);
    const open = new Set<Socket>();
    const wedged: Server = createServer({ allowHalfOpen: true }, (connection) => {
      open.add(connection);
      let text = '';
      connection.on('data', (chunk) => {
        text += chunk;
        const hello = /^\{"v":2,"hello":"([0-9a-f]{64})"\}\n/.exec(text);
        if (hello && !text.includes('proof-sent')) {
          connection.write(
            `${JSON.stringify({ v: HOOK_PROTOCOL_VERSION, proof: proofFor(key, hello[1]!) })}\n`,
          );
          text += 'proof-sent';
        }
      });
      connection.on('end', () => requests.push(text));
    });
    await new Promise<void>((resolve) => wedged.listen(socket, resolve));
    cleanups.push(() => {
      for (const connection of open) connection.destroy();
      return new Promise((resolve) => wedged.close(resolve));
    });
    const run = await t.hookAsync('s-wedged', { CAIRN_HOOK_CLIENT_TIMEOUT_MS: '1500' });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('did not answer within 1500 ms');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain('s-wedged');
    // Not run here too: the prompt is not in the project's transcript.
    const lineage = openLineageStore(t.project().root);
    try {
      expect(lineage.getTranscript('claude-code', 's-wedged')?.entries ?? []).toEqual([]);
    } finally {
      lineage.close();
    }
  });

  it.skipIf(!existsSync('/proc/1/stat'))(
    'ends a session whose lock names PID 1, alive, with another start time (a reused pid)',
    async () => {
      await t.startServer();
      const root = t.project().root;
      const stat = readFileSync('/proc/1/stat', 'latin1');
      const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim();
      mkdirSync(dirname(memoryLock(root)), { recursive: true });
      writeFileSync(
        memoryLock(root),
        `1\n${new Date().toISOString()}\nnonce\nstart=${start + 1}\nboot=${boot}\n`,
      );
      const run = t.cli.run(['hook', 'claude-code', 'SessionEnd'], sessionEnd(root, 's-pid1'), {
        ...t.serverEnv(),
      });
      expect(run.code).toBe(0);
      expect(t.answeredBy(run)).toBeGreaterThan(0);
      expect(existsSync(memoryLock(root))).toBe(false);
      const errors = join(root, '.cairn', 'state', 'lifecycle-errors.jsonl');
      expect(existsSync(errors) ? readFileSync(errors, 'utf8') : '').not.toContain('CONFLICT');
    },
  );
});

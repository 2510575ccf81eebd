import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The pinned Codex CLI of this package's devDependencies. */
export const CODEX_BIN = fileURLToPath(new URL('../../node_modules/.bin/codex', import.meta.url));
export const codexAvailable = () => existsSync(CODEX_BIN);

/**
 * A minimal JSON-RPC client for `codex app-server` over stdio: the tests use
 * it to ask Codex itself what it thinks of Cairn's install (`hooks/list`
 * trust status, `mcpServerStatus/list` connection).
 */
export interface AppServer {
  request<T = unknown>(method: string, params: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startAppServer(env: Record<string, string>, cwd: string): Promise<AppServer> {
  const child: ChildProcessWithoutNullStreams = spawn(CODEX_BIN, ['app-server'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.resume();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code) => {
    for (const waiter of pending.values())
      waiter.reject(new Error(`codex app-server exited (${code})`));
    pending.clear();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: { id?: number; result?: unknown; error?: { message: string } };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  let next = 0;
  const request = <T>(method: string, params: unknown) =>
    new Promise<T>((resolve, reject) => {
      next += 1;
      pending.set(next, { resolve: resolve as (v: unknown) => void, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: next, method, params })}\n`);
    });
  await request('initialize', {
    clientInfo: { name: 'cairn-tests', title: null, version: '0' },
    capabilities: null,
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`);
  return {
    request,
    async close() {
      child.stdin.end();
      child.kill();
      await exited;
    },
  };
}

import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { openLineageStore } from '@cairn/engine';
import { describe, expect, it } from 'vitest';
import { type CliRun, cliRunner } from '../test-cli';
import { HOOK_PROTOCOL_VERSION } from './hook-protocol';
import { alive, ask, eventRequest, until, useHookServer } from './hook-server.fixture';

const t = useHookServer();
const { cli, answeredBy, hook, prompt, serverEnv, sockets, socketDir, startServer } = t;

describe('the hook server', () => {
  it('answers a hook as the process would have, from a server the first event started', async () => {
    await startServer();
    const served = hook('s-served');
    const alone = hook('s-alone', { CAIRN_HOOK_SERVER: 'off' });
    expect(answeredBy(served)).toBeGreaterThan(0);
    expect(answeredBy(alone)).toBeUndefined();
    const context = (run: CliRun) =>
      (
        JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }
      ).hookSpecificOutput.additionalContext.replace(/pack-[0-9a-f]{8}/g, 'pack-x');
    expect(served.code).toBe(0);
    expect(context(served)).toContain('kestrel pipeline');
    expect(context(served)).toBe(context(alone));
    // The server recorded the prompt in the project, as the process would have.
    const lineage = openLineageStore(t.project().root);
    try {
      const entries = lineage.getTranscript('claude-code', 's-served')?.entries ?? [];
      expect(entries.map((entry) => entry.text)).toEqual([
        'when do deploys go out through kestrel',
      ]);
    } finally {
      lineage.close();
    }
  });

  it('runs each event with its own environment, and reads the settings anew', async () => {
    await startServer();
    const full = hook('s-budget-full');
    const none = hook('s-budget-none', { CAIRN_MEMORY_CONTEXT_BUDGET_TOKENS: '0' });
    expect(answeredBy(full)).toBe(answeredBy(none));
    expect(full.stdout).toContain('kestrel pipeline');
    expect(none.stdout).not.toContain('kestrel pipeline');
  });

  it('opens a project again when its database was moved aside between two events', async () => {
    await startServer();
    expect(answeredBy(hook('s-before'))).toBeGreaterThan(0);
    const state = join(t.project().root, '.cairn', 'state');
    for (const name of readdirSync(state).filter((n) => n.startsWith('lineage.db'))) {
      renameSync(join(state, name), join(state, `old-${name}`));
    }
    expect(answeredBy(hook('s-after'))).toBeGreaterThan(0);
    const lineage = openLineageStore(t.project().root);
    try {
      expect(lineage.getTranscript('claude-code', 's-after')?.entries).toHaveLength(1);
    } finally {
      lineage.close();
    }
  });

  it('answers events that arrive together, each once', async () => {
    await startServer();
    const runs = await Promise.all(
      ['a', 'b', 'c', 'd'].map((id) =>
        cliRunner(() => t.project().root, serverEnv()).start(
          ['hook', 'claude-code', 'UserPromptSubmit'],
          prompt(`s-together-${id}`),
        ),
      ),
    );
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(answeredBy(run)).toBeGreaterThan(0);
      expect(run.stdout).toContain('kestrel pipeline');
    }
    expect(new Set(runs.map(answeredBy)).size).toBe(1);
  });

  it('runs nothing but hook and lifecycle events, and refuses a request it cannot read', async () => {
    await startServer();
    const socket = join(socketDir(), sockets()[0]!);
    const raw = (body: string) =>
      new Promise<string>((resolve, reject) => {
        const connection = connect(socket);
        let reply = '';
        connection.on('connect', () => connection.end(body));
        connection.on('data', (chunk) => {
          reply += chunk;
        });
        connection.on('error', reject);
        connection.on('close', () => resolve(reply));
      });
    const add = eventRequest(['add', 'Injected through the socket'], t.project().root, 'x', {});
    // Without the hello first, nothing is read.
    expect(JSON.parse(await raw(`${JSON.stringify(add)}\n`))).toEqual({
      v: HOOK_PROTOCOL_VERSION,
      declined: 'no hello: not a hook client',
    });
    // After it, only hook and lifecycle events run.
    const outcome = await ask(socket, add);
    expect(outcome).toEqual({
      kind: 'reply',
      reply: { v: HOOK_PROTOCOL_VERSION, declined: 'not served: add' },
    });
    const broken = await ask(socket, { v: HOOK_PROTOCOL_VERSION, argv: 'hook' } as never);
    expect(broken).toEqual({
      kind: 'reply',
      reply: { v: HOOK_PROTOCOL_VERSION, declined: 'not a hook request' },
    });
    const units = cli.run(['list', '--json']);
    expect(units.stdout).not.toContain('Injected through the socket');
  });

  it('listens in a folder only its user can enter, and uses none that others can', async () => {
    await startServer();
    expect(statSync(socketDir()).mode & 0o777).toBe(0o700);
    expect(statSync(join(socketDir(), sockets()[0]!)).mode & 0o777).toBe(0o600);
    // Another cache whose hooks folder anyone may write: no server is started or used there.
    const shared = `${t.cache()}-shared`;
    mkdirSync(join(shared, 'cairn', 'hooks'), { recursive: true });
    chmodSync(join(shared, 'cairn', 'hooks'), 0o777);
    try {
      const run = hook('s-shared', { XDG_CACHE_HOME: shared });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('kestrel pipeline');
      expect(answeredBy(run)).toBeUndefined();
      expect(readdirSync(join(shared, 'cairn', 'hooks'))).toEqual([]);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it('is reported by cairn doctor: off, not running, answering', async () => {
    const state = (env: NodeJS.ProcessEnv) =>
      (
        JSON.parse(cli.run(['doctor', '--json'], undefined, { ...serverEnv(), ...env }).stdout) as {
          hookServer: { state: string };
        }
      ).hookServer.state;
    expect(state({ CAIRN_HOOK_SERVER: 'off' })).toBe('off');
    expect(state({})).toBe('idle');
    await startServer();
    expect(state({})).toBe('answering');
    expect(cli.run(['doctor'], undefined, serverEnv()).stdout).toContain(
      'hook server: answering hook events',
    );
  });

  it('stops when it has been idle, and when its socket is removed', async () => {
    // Idle long enough for a loaded machine's poll to see the socket before it goes.
    await startServer({ CAIRN_HOOK_SERVER_IDLE_MS: '2000' });
    await until(() => sockets().length === 0, 'the idle server to stop');
    await startServer();
    const pid = answeredBy(hook('s-pid'));
    expect(pid).toBeGreaterThan(0);
    rmSync(socketDir(), { recursive: true, force: true });
    await until(() => !alive(pid as number), 'the server to notice its socket is gone');
  });
});

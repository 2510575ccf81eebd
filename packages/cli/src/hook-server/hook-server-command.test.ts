import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, useHookServer } from './hook-server.fixture';

const t = useHookServer();

const hookServer = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  t.cli.run(['hook-server', ...args], undefined, { ...t.serverEnv(), ...env });

describe('cairn hook-server status | stop', () => {
  it('says whether one runs, with its pid, uptime, projects and socket, and stops it', async () => {
    const idle = hookServer(['status', '--json']);
    expect(idle.code).toBe(0);
    expect(JSON.parse(idle.stdout)).toMatchObject({ state: 'idle' });
    expect(hookServer(['status']).stdout).toContain('hook server: not running');
    expect(
      JSON.parse(hookServer(['status', '--json'], { CAIRN_HOOK_SERVER: 'off' }).stdout),
    ).toEqual({ state: 'off' });

    await t.startServer();
    const pid = t.answeredBy(t.hook('s-status'));
    const status = JSON.parse(hookServer(['status', '--json']).stdout);
    expect(status).toMatchObject({
      state: 'answering',
      pid,
      socket: t.socket(),
      node: process.version,
      answered: 1,
      pending: {},
      projects: [t.project().root],
    });
    expect(status.uptimeMs).toBeGreaterThanOrEqual(0);
    const text = hookServer(['status']).stdout;
    expect(text).toContain(`hook server: running (pid ${pid}, up `);
    expect(text).toContain(`socket: ${t.socket()}`);
    expect(text).toContain(`projects open: 1\n  ${t.project().root}`);

    const stop = hookServer(['stop']);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe(`hook server: stopped (pid ${pid})\n`);
    expect(alive(pid!)).toBe(false);
    expect(t.sockets()).toEqual([]);
    expect(JSON.parse(hookServer(['status', '--json']).stdout)).toMatchObject({ state: 'idle' });
    // Nothing to stop: said, and not an error.
    const again = hookServer(['stop', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ state: 'idle', stopped: false });
  });

  it('prints its help, starts nothing for it, refuses an unknown command, and never makes its folder again', () => {
    const help = hookServer(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: cairn hook-server [status | stop] [--json]');
    expect(t.sockets()).toEqual([]);
    const unknown = hookServer(['restart']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('INVALID_INPUT');
    expect(unknown.stderr).toContain('usage: cairn hook-server');
    // A server whose socket folder is gone (a wiped cache) does not make it again.
    const serve = hookServer([]);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain('socket folder');
    expect(existsSync(t.socketDir())).toBe(false);
  });
});

describe('each event with its own HOME', () => {
  it('answers an event from HOME=h2 with h2’s user config, not that of the HOME the server started under', async () => {
    const root = t.project().root;
    const home = (name: string, config: object) => {
      const dir = join(root, name);
      mkdirSync(join(dir, '.config', 'cairn'), { recursive: true });
      writeFileSync(join(dir, '.config', 'cairn', 'config.json'), JSON.stringify(config));
      // No XDG_CONFIG_HOME: the user config is found under HOME.
      return { HOME: dir, XDG_CONFIG_HOME: undefined };
    };
    const h1 = home('h1', { memory: { longTerm: 'units' } });
    const h2 = home('h2', { memory: { longTerm: 'off' } });
    await t.startServer(h1);
    const one = t.hook('s-h1', h1);
    const two = t.hook('s-h2', h2);
    const alone = t.hook('s-h2-alone', { ...h2, CAIRN_HOOK_SERVER: 'off' });
    expect(t.answeredBy(one)).toBeGreaterThan(0);
    expect(t.answeredBy(two)).toBe(t.answeredBy(one));
    expect(one.stdout).toContain('kestrel pipeline');
    expect(alone.stdout).not.toContain('kestrel pipeline');
    expect(two.stdout).not.toContain('kestrel pipeline');
    expect(existsSync(join(root, 'h2', '.config', 'cairn', 'config.json'))).toBe(true);
  });
});

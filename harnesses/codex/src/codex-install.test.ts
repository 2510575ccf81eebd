import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessInstallOptions } from '@cairn/core';
import { expectCode, makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodexHarness } from './codex-harness';

// biome-ignore lint/suspicious/noExplicitAny: parsed TOML is read by known paths in assertions
type Toml = Record<string, any>;
const harness = createCodexHarness();
const USER_CONFIG = `# my codex config
model = "gpt-5" # keep this comment

[model_providers.x]
name = "x"   # aligned on purpose
base_url = "http://127.0.0.1:1/v1"

# the other server
[mcp_servers.other]
command = "other"
`;
const USER_HOOKS = {
  hooks: {
    SessionStart: [{ hooks: [{ type: 'command', command: 'echo mine' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }],
  },
};

let temp: TempProject;
let home: string;
let codexHome: string;
let project: string;

function options(overrides: Partial<HarnessInstallOptions> = {}): HarnessInstallOptions {
  return {
    scope: 'user',
    projectRoot: project,
    homeDir: home,
    dryRun: false,
    cairnCommand: ['/opt/node', '/opt/cairn/bin.js'],
    env: {},
    ...overrides,
  };
}

beforeEach(async () => {
  temp = await makeTempProject('cairn-codex-install-');
  home = join(temp.root, 'home');
  codexHome = join(home, '.codex');
  project = join(temp.root, 'project');
  await mkdir(codexHome, { recursive: true });
  await mkdir(project, { recursive: true });
});
afterEach(async () => temp.cleanup());

const read = (path: string) => readFile(path, 'utf8');

describe('install (user scope)', () => {
  beforeEach(async () => {
    await writeFile(join(codexHome, 'config.toml'), USER_CONFIG);
    await writeFile(join(codexHome, 'hooks.json'), `${JSON.stringify(USER_HOOKS, null, 2)}\n`);
  });

  it('adds hooks after the user’s, the MCP server and hook trust, keeping the rest byte for byte', async () => {
    const report = await harness.install(options());
    expect(report.changes.map((change) => change.action)).toEqual(['update', 'update']);
    const text = await read(join(codexHome, 'config.toml'));
    // Cairn's blocks stand before the first table (Codex appends its own tables at the end).
    expect(text.indexOf('# >>> cairn:')).toBeLessThan(text.indexOf('[model_providers.x]'));
    expect(text.replace(/# >>> cairn: [^\n]*\n[\s\S]*?# <<< cairn: [^\n]*\n\n/g, '')).toBe(
      USER_CONFIG,
    );
    const config = parse(text) as Toml;
    expect(config.mcp_servers.cairn).toEqual({
      command: '/opt/node',
      args: ['/opt/cairn/bin.js', 'mcp'],
      default_tools_approval_mode: 'approve',
    });
    expect(config.mcp_servers.other).toEqual({ command: 'other' });
    const hooks = JSON.parse(await read(join(codexHome, 'hooks.json')));
    expect(hooks.hooks.Stop).toEqual(USER_HOOKS.hooks.Stop);
    expect(hooks.hooks.SessionStart[0]).toEqual(USER_HOOKS.hooks.SessionStart[0]);
    expect(hooks.hooks.SessionStart[1].hooks[0].command).toBe(
      '/opt/node /opt/cairn/bin.js hook codex SessionStart',
    );
    // Cairn's group is second for SessionStart, first elsewhere: trust keys say so.
    const keys = Object.keys(config.hooks.state);
    expect(keys).toContain(`${join(codexHome, 'hooks.json')}:session_start:1:0`);
    expect(keys).toContain(`${join(codexHome, 'hooks.json')}:session_end:0:0`);
    expect(keys).toHaveLength(6);
    for (const key of keys)
      expect(config.hooks.state[key].trusted_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    for (const change of report.changes) {
      expect(change.backup).toBeDefined();
      expect(await read(change.backup!)).toBe(
        change.path.endsWith('.toml') ? USER_CONFIG : `${JSON.stringify(USER_HOOKS, null, 2)}\n`,
      );
    }
  });

  it('changes nothing on a second install', async () => {
    await harness.install(options());
    const before = await snapshotTree(temp.root);
    const report = await harness.install(options());
    expect(report.changes.map((change) => change.action)).toEqual(['unchanged', 'unchanged']);
    expect(await snapshotTree(temp.root)).toEqual(before);
  });

  it('replaces an older install (another Cairn path) instead of adding a second one', async () => {
    await harness.install(options({ cairnCommand: ['/old/node', '/old/bin.js'] }));
    await harness.install(options());
    const text = await read(join(codexHome, 'config.toml'));
    expect(text).not.toContain('/old/');
    expect(text.match(/\[mcp_servers\.cairn\]/g)).toHaveLength(1);
    const hooks = JSON.parse(await read(join(codexHome, 'hooks.json')));
    expect(hooks.hooks.SessionStart).toHaveLength(2);
  });

  it('uninstall restores the user’s files exactly', async () => {
    await harness.install(options());
    const report = await harness.uninstall(options());
    expect(report.changes.map((change) => change.action)).toEqual(['update', 'update']);
    expect(await read(join(codexHome, 'config.toml'))).toBe(USER_CONFIG);
    expect(JSON.parse(await read(join(codexHome, 'hooks.json')))).toEqual(USER_HOOKS);
    const again = await harness.uninstall(options());
    expect(again.changes.map((change) => change.action)).toEqual(['unchanged', 'unchanged']);
  });

  it('dry-run reports the change and writes nothing', async () => {
    const before = await snapshotTree(temp.root);
    const report = await harness.install(options({ dryRun: true }));
    expect(report.dryRun).toBe(true);
    expect(report.changes.find((c) => c.path.endsWith('config.toml'))?.preview).toContain(
      '+ [mcp_servers.cairn]',
    );
    expect(await snapshotTree(temp.root)).toEqual(before);
  });

  it('status reports the install and every hook trusted', async () => {
    expect((await harness.status(options())).installed).toBe(false);
    await harness.install(options());
    const status = await harness.status(options());
    expect(status).toMatchObject({
      harness: 'codex',
      installed: true,
      scope: 'user',
      problems: [],
    });
  });

  it('status flags hooks whose trust no longer matches', async () => {
    await harness.install(options());
    const path = join(codexHome, 'hooks.json');
    await writeFile(path, (await read(path)).replace('"timeout": 30', '"timeout": 31'));
    const status = await harness.status(options());
    expect(status.problems.join('\n')).toMatch(/not trusted/);
  });
});

describe('install refuses damaged files and writes nothing', () => {
  it.each([
    ['config.toml', 'model = "unterminated\n'],
    ['hooks.json', '{"hooks": '],
    ['hooks.json', '{"hooks": {"SessionStart": "not a list"}}'],
  ])('%s: %s', async (file, text) => {
    await writeFile(join(codexHome, file), text);
    const before = await snapshotTree(temp.root);
    await expectCode(harness.install(options()), 'INVALID_CONFIG');
    await expectCode(harness.uninstall(options()), 'INVALID_CONFIG');
    expect(await snapshotTree(temp.root)).toEqual(before);
  });

  it('a [mcp_servers.cairn] defined inline is left for the user to fix', async () => {
    const text = 'mcp_servers = { cairn = { command = "x" } }\n';
    await writeFile(join(codexHome, 'config.toml'), text);
    await expectCode(harness.install(options()), 'INVALID_CONFIG');
    expect(await read(join(codexHome, 'config.toml'))).toBe(text);
  });
});

describe('install (project scope)', () => {
  it('writes .codex/hooks.json and .codex/config.toml, trust in the user config, and notes project trust', async () => {
    const report = await harness.install(options({ scope: 'project' }));
    const paths = report.changes.map((change) => change.path);
    expect(paths).toEqual([
      join(project, '.codex', 'hooks.json'),
      join(project, '.codex', 'config.toml'),
      join(codexHome, 'config.toml'),
    ]);
    const layer = parse(await read(join(project, '.codex', 'config.toml'))) as Toml;
    expect(layer.mcp_servers.cairn.command).toBe('/opt/node');
    const user = parse(await read(join(codexHome, 'config.toml'))) as Toml;
    expect(Object.keys(user.hooks.state)[0]).toContain(join(project, '.codex', 'hooks.json'));
    expect(report.notes.join('\n')).toContain('trust_level = "trusted"');

    // The folder the install created goes with its files.
    const removal = await harness.uninstall(options({ scope: 'project' }));

    expect(removal.changes.at(-1)).toMatchObject({
      path: join(project, '.codex'),
      action: 'delete',
    });
    expect(await readdir(project)).toEqual(['.cairn']);
  });

  it('CODEX_HOME decides where the user config is', async () => {
    const other = join(temp.root, 'elsewhere');
    const report = await harness.install(options({ env: { CODEX_HOME: other } }));
    expect(report.changes.map((change) => change.path)).toEqual([
      join(other, 'hooks.json'),
      join(other, 'config.toml'),
    ]);
  });
});

describe('uninstall gives files back', () => {
  it('byte for byte when unchanged, one line kept when edited, backups under state', async () => {
    const hooks = join(codexHome, 'hooks.json');
    const config = join(codexHome, 'config.toml');
    const ONE_LINE = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo stop"}]}]}}';
    await writeFile(hooks, ONE_LINE);
    await writeFile(config, USER_CONFIG);
    const report = await harness.install(options());
    for (const change of report.changes)
      expect(change.backup).toContain(join(home, '.local', 'state', 'cairn', 'install-backups'));
    expect((await readdir(codexHome)).filter((name) => name.includes('backup'))).toEqual([]);
    expect(await read(hooks)).not.toContain('\n');
    await harness.uninstall(options());
    expect(await read(hooks)).toBe(ONE_LINE);
    expect(await read(config)).toBe(USER_CONFIG);

    await harness.install(options());
    await writeFile(hooks, (await read(hooks)).replace('echo stop', 'echo stopped'));
    await harness.uninstall(options());
    expect(await read(hooks)).toBe(ONE_LINE.replace('echo stop', 'echo stopped'));
  });
});

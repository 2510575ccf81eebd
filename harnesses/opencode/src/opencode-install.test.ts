import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessInstallOptions } from '@cairn/core';
import { expectCode, makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpencodeHarness } from './index';
import { STUB_MARKER, STUB_RELATIVE_PATH, STUB_TEXT } from './plugin-stub';

const PLUGIN = 'file:///opt/cairn/harnesses/opencode/dist/plugin.js';
const adapter = createOpencodeHarness({ pluginSpec: PLUGIN });

let temp: TempProject;
let options: HarnessInstallOptions;
const projectConfig = () => join(temp.root, 'project', 'opencode.json');
const stub = () => join(temp.root, 'project', STUB_RELATIVE_PATH);
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

beforeEach(async () => {
  temp = await makeTempProject('cairn-opencode-install-');
  await mkdir(join(temp.root, 'project'));
  options = {
    scope: 'project',
    projectRoot: join(temp.root, 'project'),
    homeDir: join(temp.root, 'home'),
    dryRun: false,
    cairnCommand: ['/usr/bin/node', '/opt/cairn/bin.js'],
    env: {},
  };
});
afterEach(() => temp.cleanup());

describe('opencode install', () => {
  it('registers the plugin loader and the MCP server, and a second install changes nothing', async () => {
    const first = await adapter.install(options);
    expect(first.changes.map((c) => c.action)).toEqual(['create', 'create']);
    expect(await readFile(stub(), 'utf8')).toBe(STUB_TEXT);
    // With the $schema line OpenCode would otherwise add on a teammate's first run.
    expect(await readJson(projectConfig())).toEqual({
      $schema: 'https://opencode.ai/config.json',
      mcp: {
        cairn: {
          type: 'local',
          command: ['/usr/bin/node', '/opt/cairn/bin.js', 'mcp'],
          enabled: true,
        },
      },
    });
    const before = await snapshotTree(temp.root);
    const second = await adapter.install(options);
    expect(second.changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged']);
    expect(await snapshotTree(temp.root)).toEqual(before);
    const status = await adapter.status(options);
    expect(status).toMatchObject({ installed: true, scope: 'project', problems: [] });
    expect(status.details.join('\n')).toContain('plugin loader');
    await writeFile(stub(), `${STUB_MARKER}\n// an older loader\n`);
    const stale = await adapter.status(options);
    expect(stale.problems.join('\n')).toContain('run `cairn install opencode`');
    expect((await adapter.install(options)).changes.map((c) => c.action)).toEqual([
      'unchanged',
      'update',
    ]);
    expect((await adapter.status(options)).problems).toEqual([]);
  });

  it('commits no path of this machine: the plugin entry goes, the stub names none', async () => {
    const old = { plugin: ['opencode-wakatime', PLUGIN], model: 'x' };
    await writeFile(projectConfig(), JSON.stringify(old));
    await adapter.install({ ...options, cairnCommand: ['cairn'] });
    const committed = [await readFile(projectConfig(), 'utf8'), await readFile(stub(), 'utf8')];
    for (const text of committed) {
      expect(text).not.toContain('file://');
      for (const path of [temp.root, '/opt/cairn', process.cwd(), options.homeDir]) {
        expect(text).not.toContain(path);
      }
    }
    expect(await readJson(projectConfig())).toMatchObject({ plugin: ['opencode-wakatime'] });
    await adapter.uninstall(options);
    expect(existsSync(stub())).toBe(false);
    expect(await readJson(projectConfig())).toEqual(old);
  });

  it("leaves a plugin file of the user's own at the stub's path after uninstall", async () => {
    await mkdir(join(temp.root, 'project', '.opencode', 'plugin'), { recursive: true });
    await writeFile(stub(), 'export const Mine = async () => ({});\n');
    const report = await adapter.install(options);
    expect(report.changes[1]!.backup).toBeDefined();
    await writeFile(stub(), 'export const Mine = async () => ({ edited: true });\n');
    await adapter.uninstall(options);
    expect(await readFile(stub(), 'utf8')).toContain('edited');
  });

  it("keeps the user's settings, backs the file up, and uninstall gives it back", async () => {
    const original = {
      $schema: 'https://opencode.ai/config.json',
      model: 'anthropic/claude-sonnet',
      plugin: ['opencode-wakatime'],
      mcp: { github: { type: 'remote', url: 'https://example.com/mcp' } },
    };
    const text = `${JSON.stringify(original, null, 2)}\n`;
    await writeFile(projectConfig(), text);
    const report = await adapter.install(options);
    expect(report.changes[0]).toMatchObject({ action: 'update' });
    const backup = report.changes[0]!.backup!;
    expect(await readFile(backup, 'utf8')).toBe(text);
    const installed = await readJson(projectConfig());
    expect(installed.model).toBe('anthropic/claude-sonnet');
    expect(installed.plugin).toEqual(['opencode-wakatime']);
    expect(Object.keys(installed.mcp)).toEqual(['github', 'cairn']);
    const removed = await adapter.uninstall(options);
    expect(removed.changes[0]).toMatchObject({ action: 'update' });
    expect(removed.changes[1]).toMatchObject({ action: 'delete' });
    expect(await readJson(projectConfig())).toEqual(original);
    expect((await adapter.status(options)).installed).toBe(false);
  });

  it('deletes a file only Cairn used, and uninstall of nothing changes nothing', async () => {
    await adapter.install(options);
    const removed = await adapter.uninstall(options);
    // The files, then the folders the install created for the loader, left empty.
    expect(removed.changes.map((c) => c.action)).toEqual(['delete', 'delete', 'delete', 'delete']);
    expect(await readdir(join(temp.root, 'project'))).toEqual(['.cairn']);
    const before = await snapshotTree(temp.root);
    expect((await adapter.uninstall(options)).changes.map((c) => c.action)).toEqual([
      'unchanged',
      'unchanged',
    ]);
    expect(await snapshotTree(temp.root)).toEqual(before);
  });

  it('prints the change with --dry-run and writes nothing', async () => {
    const before = await snapshotTree(temp.root);
    const report = await adapter.install({ ...options, dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.changes[0]!.preview).toContain('"mcp"');
    expect(report.changes[1]!.preview).toContain(STUB_MARKER);
    expect(await snapshotTree(temp.root)).toEqual(before);
  });

  it('refuses a damaged opencode.json with INVALID_CONFIG and changes nothing', async () => {
    await writeFile(projectConfig(), '{ "model": "x", // a comment\n');
    const before = await snapshotTree(temp.root);
    await expectCode(adapter.install(options), 'INVALID_CONFIG');
    await writeFile(projectConfig(), '{ "plugin": "not-a-list" }\n');
    const after = await snapshotTree(temp.root);
    await expectCode(adapter.install(options), 'INVALID_CONFIG');
    await expectCode(adapter.uninstall(options), 'INVALID_CONFIG');
    expect(await snapshotTree(temp.root)).toEqual(after);
    expect(Object.keys(before)).toEqual(Object.keys(after));
  });

  it('installs for the user under $XDG_CONFIG_HOME/opencode, else ~/.config/opencode', async () => {
    const user = { ...options, scope: 'user' as const };
    await adapter.install(user);
    const path = join(options.homeDir, '.config/opencode/opencode.json');
    // Not committed: the user's config names this machine's plugin file.
    expect((await readJson(path)).plugin).toEqual([PLUGIN]);
    expect((await readJson(path)).mcp.cairn.command).toEqual([
      '/usr/bin/node',
      '/opt/cairn/bin.js',
      'mcp',
    ]);
    const xdg = join(temp.root, 'xdg');
    await adapter.install({ ...user, env: { XDG_CONFIG_HOME: xdg } });
    expect(await readdir(join(xdg, 'opencode'))).toEqual(['opencode.json']);
    expect((await adapter.status(user)).scope).toBe('user');
  });
});

describe('uninstall gives the file back', () => {
  it('byte for byte when unchanged, one line kept when edited, backup under state', async () => {
    const ONE_LINE = '{"model":"anthropic/claude-sonnet","plugin":["opencode-wakatime"]}';
    await writeFile(projectConfig(), ONE_LINE);
    const report = await adapter.install(options);
    expect(report.changes[0]!.backup).toContain(join(temp.root, 'project', '.cairn', 'state'));
    expect(await readdir(join(temp.root, 'project'))).toEqual([
      '.cairn',
      '.opencode',
      'opencode.json',
    ]);
    await adapter.uninstall(options);
    expect(await readFile(projectConfig(), 'utf8')).toBe(ONE_LINE);

    await adapter.install(options);
    const installed = await readFile(projectConfig(), 'utf8');
    await writeFile(projectConfig(), installed.replace('claude-sonnet', 'claude-opus'));
    await adapter.uninstall(options);
    expect(await readFile(projectConfig(), 'utf8')).toBe(ONE_LINE.replace('sonnet', 'opus'));
  });
});

describe('both scopes', () => {
  it('install says the plugin is at the other scope too, and status notes it (harmless)', async () => {
    const user = { ...options, scope: 'user' as const };
    expect((await adapter.install(user)).notes.join('\n')).not.toContain('also installed');
    const report = await adapter.install(options);
    expect(report.notes.join('\n')).toContain(
      "Cairn's OpenCode plugin is also installed at the user scope: OpenCode loads it twice and the second copy stands down",
    );
    expect(report.notes.join('\n')).toContain('`cairn uninstall opencode --scope user`');
    const status = await adapter.status(options);
    // The fake plugin path of this test is the only problem: both scopes are not one.
    expect(status.problems).toEqual([expect.stringContaining('does not exist: reinstall')]);
    expect(status.notes?.join('\n')).toContain('also installed at the user scope');
    await adapter.uninstall(user);
    expect((await adapter.status(options)).notes).toBeUndefined();
  });
});

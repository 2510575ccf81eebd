import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessInstallOptions } from '@cairn/core';
import { expectCode, makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pluginDir } from './openclaw-config';
import { createOpenclawHarness } from './openclaw-harness';

let temp: TempProject;
let options: HarnessInstallOptions;
const harness = createOpenclawHarness();
const configPath = () => join(temp.root, 'home', '.openclaw', 'openclaw.json');
const USER_CONFIG = {
  models: {
    providers: { mine: { baseUrl: 'http://example.invalid/v1', api: 'openai-completions' } },
  },
  plugins: { entries: { other: { enabled: true } }, load: { paths: ['/opt/other-plugin'] } },
  mcp: { servers: { docs: { command: 'docs-server' } } },
};

beforeEach(async () => {
  temp = await makeTempProject('cairn-openclaw-install-');
  options = {
    scope: 'project',
    projectRoot: join(temp.root, 'project'),
    homeDir: join(temp.root, 'home'),
    dryRun: false,
    cairnCommand: ['/usr/bin/node', '/opt/cairn/bin.js'],
    env: {},
  };
  // `cairn install` gives a project its memory folder before a project-scope install.
  await mkdir(join(options.projectRoot, '.cairn'), { recursive: true });
});
afterEach(() => temp.cleanup());

async function writeUserConfig(value: unknown = USER_CONFIG): Promise<string> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  await mkdir(join(temp.root, 'home', '.openclaw'), { recursive: true });
  await writeFile(configPath(), text);
  return text;
}

const readConfig = async () => JSON.parse(await readFile(configPath(), 'utf8'));

describe('openclaw install', () => {
  it('links the plugin, grants hook access, takes the memory slot and adds the MCP server', async () => {
    const report = await harness.install(options);
    expect(report.changes.map((c) => c.action)).toEqual(['create']);
    const config = await readConfig();
    expect(config.plugins.load.paths).toEqual([pluginDir()]);
    expect(config.plugins.entries.cairn).toEqual({
      enabled: true,
      hooks: { allowConversationAccess: true },
      config: { projectRoot: options.projectRoot },
    });
    expect(config.plugins.slots.memory).toBe('cairn');
    expect(config.mcp.servers.cairn).toEqual({
      command: '/usr/bin/node',
      args: ['/opt/cairn/bin.js', 'mcp', '--root', options.projectRoot],
    });
    const status = await harness.status(options);
    expect(status).toMatchObject({ installed: true, scope: 'project', problems: [] });
  });

  it('keeps the user settings, backs the file up, and changes nothing the second time', async () => {
    const original = await writeUserConfig();
    const first = await harness.install(options);
    expect(first.changes[0]).toMatchObject({ action: 'update' });
    expect(await readFile(first.changes[0]!.backup!, 'utf8')).toBe(original);
    const config = await readConfig();
    expect(config.models).toEqual(USER_CONFIG.models);
    expect(config.plugins.entries.other).toEqual({ enabled: true });
    expect(config.plugins.load.paths).toEqual(['/opt/other-plugin', pluginDir()]);
    expect(config.mcp.servers.docs).toEqual({ command: 'docs-server' });
    const before = await snapshotTree(temp.root);
    const second = await harness.install(options);
    expect(second.changes.map((c) => c.action)).toEqual(['unchanged']);
    expect(await snapshotTree(temp.root)).toEqual(before);
  });

  it('uninstall restores the user file (and deletes a file Cairn created)', async () => {
    await writeUserConfig();
    await harness.install(options);
    const removed = await harness.uninstall(options);
    expect(removed.changes[0]).toMatchObject({ action: 'update' });
    expect(await readConfig()).toEqual(USER_CONFIG);
    expect((await harness.status(options)).installed).toBe(false);
    expect((await harness.uninstall(options)).changes.map((c) => c.action)).toEqual(['unchanged']);

    const fresh = { ...options, homeDir: join(temp.root, 'other-home') };
    await harness.install(fresh);
    const gone = await harness.uninstall(fresh);
    expect(gone.changes[0]).toMatchObject({ action: 'delete' });
    // With the folder the install created for it (never the home itself).
    expect(gone.changes[1]).toMatchObject({
      action: 'delete',
      path: join(temp.root, 'other-home', '.openclaw'),
    });
    expect(await readdir(join(temp.root, 'other-home'))).toEqual([]);
  });

  it('user scope follows the agent workspace and passes the Node 24 addon to the plugin', async () => {
    await harness.install({
      ...options,
      scope: 'user',
      env: { CAIRN_SQLITE_BINDING: '/x/b.node' },
    });
    const config = await readConfig();
    expect(config.plugins.entries.cairn.config).toEqual({ sqliteBinding: '/x/b.node' });
    expect(config.mcp.servers.cairn.args).toEqual(['/opt/cairn/bin.js', 'mcp']);
    expect((await harness.status(options)).scope).toBe('user');
  });

  it('honours OPENCLAW_CONFIG_PATH', async () => {
    const path = join(temp.root, 'elsewhere', 'oc.json');
    const report = await harness.install({ ...options, env: { OPENCLAW_CONFIG_PATH: path } });
    expect(report.changes[0]!.path).toBe(path);
  });

  it('dry-run prints the change and writes nothing', async () => {
    await writeUserConfig();
    const before = await snapshotTree(temp.root);
    const report = await harness.install({ ...options, dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.changes[0]!.action).toBe('update');
    expect(report.changes[0]!.preview).toContain('"allowConversationAccess": true');
    expect(await snapshotTree(temp.root)).toEqual(before);
  });

  it('refuses a damaged config with INVALID_CONFIG and changes nothing', async () => {
    await mkdir(join(temp.root, 'home', '.openclaw'), { recursive: true });
    await writeFile(configPath(), '{ "plugins": ');
    const before = await snapshotTree(temp.root);
    await expectCode(harness.install(options), 'INVALID_CONFIG');
    await expectCode(harness.uninstall(options), 'INVALID_CONFIG');
    expect(await snapshotTree(temp.root)).toEqual(before);
  });

  it("replaces the CLI's own folder an older install linked, which holds no plugin", async () => {
    const cliDir = join(temp.root, 'node_modules', '@cairn', 'cli');
    await mkdir(cliDir, { recursive: true });
    await writeFile(join(cliDir, 'package.json'), '{"name":"@cairn/cli"}\n');
    await harness.install(options);
    const config = await readConfig();
    config.plugins.load.paths = [cliDir];
    await writeFile(configPath(), JSON.stringify(config));
    const broken = await harness.status(options);
    expect(broken.installed).toBe(true);
    expect(broken.problems.join('\n')).toMatch(/cannot load the plugin.*openclaw\.plugin\.json/);
    await harness.install(options);
    expect((await readConfig()).plugins.load.paths).toEqual([pluginDir()]);
    expect((await harness.status(options)).problems).toEqual([]);
  });
});

describe('openclaw uninstall gives the file back', () => {
  it('byte for byte when unchanged, tabs kept when edited, backup under state', async () => {
    const text = `${JSON.stringify(USER_CONFIG, null, '\t')}`;
    await mkdir(join(temp.root, 'home', '.openclaw'), { recursive: true });
    await writeFile(configPath(), text);
    const report = await harness.install({ ...options, scope: 'user' });
    expect(report.changes[0]!.backup).toContain(join(temp.root, 'home', '.local', 'state'));
    expect(await readdir(join(temp.root, 'home', '.openclaw'))).toEqual(['openclaw.json']);
    await harness.uninstall({ ...options, scope: 'user' });
    expect(await readFile(configPath(), 'utf8')).toBe(text);

    await harness.install({ ...options, scope: 'user' });
    const installed = await readFile(configPath(), 'utf8');
    await writeFile(configPath(), installed.replace('docs-server', 'docs-server2'));
    await harness.uninstall({ ...options, scope: 'user' });
    expect(await readFile(configPath(), 'utf8')).toBe(text.replace('docs-server', 'docs-server2'));
  });
});

describe('a project that moved', () => {
  it('doctor says the plugin serves a folder that is gone; install in the new folder repairs it', async () => {
    await harness.install(options);
    const moved = join(temp.root, 'moved');
    await rename(options.projectRoot, moved);
    const status = await harness.status({ ...options, projectRoot: moved });
    expect(status.installed).toBe(true);
    expect(status.problems).toEqual([
      `${configPath()}: plugins.entries.cairn.config.projectRoot is ${options.projectRoot}, which holds no .cairn/ (the project moved or was deleted?): the plugin records nothing; run \`cairn install openclaw --scope project\` in the project's folder`,
    ]);
    await harness.install({ ...options, projectRoot: moved });
    expect((await readConfig()).plugins.entries.cairn.config.projectRoot).toBe(moved);
    expect((await harness.status({ ...options, projectRoot: moved })).problems).toEqual([]);
  });

  it('doctor names a linked plugin folder that moved away; install replaces the link', async () => {
    await harness.install(options);
    const config = await readConfig();
    const gone = join(options.projectRoot, 'node_modules', '@cairn', 'harness-openclaw');
    config.plugins.load.paths = ['/opt/other-plugin', gone];
    await writeFile(configPath(), JSON.stringify(config));
    const problems = (await harness.status(options)).problems.join('\n');
    expect(problems).toContain(`plugins.load.paths links ${gone}, which no longer exists`);
    expect(problems).toContain('OpenClaw cannot load the plugin');
    await harness.install(options);
    expect((await readConfig()).plugins.load.paths).toEqual(['/opt/other-plugin', pluginDir()]);
    expect((await harness.status(options)).problems).toEqual([]);
  });
});

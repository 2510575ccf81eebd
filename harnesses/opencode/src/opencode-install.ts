import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CairnError,
  type HarnessInstallOptions,
  type HarnessInstallReport,
  type HarnessStatus,
  type InstallScope,
} from '@cairn/core';
import {
  applyPlan,
  type PlannedFile,
  parseJsonFile,
  planJsonEdit,
  readOptional,
} from '@cairn/harness-kit';
import { STUB_MARKER, STUB_RELATIVE_PATH, STUB_TEXT } from './plugin-stub';

/** The MCP server name in opencode.json; OpenCode names its tools `cairn_<tool>`. */
export const MCP_SERVER_NAME = 'cairn';

type InstallTarget = Omit<HarnessInstallOptions, 'dryRun'>;
type Config = Record<string, unknown>;

/**
 * The plugin module OpenCode loads, as a file URL. Resolved through the
 * package's own `./plugin` export so it works from this package's dist and
 * from the CLI bundle that inlines this code alike.
 */
export function defaultPluginSpec(): string {
  const require = createRequire(import.meta.url);
  const path = require.resolve('@cairn/harness-opencode/plugin');
  return pathToFileURL(realpathSync(path)).href;
}

/** `<project>/opencode.json`, or `$XDG_CONFIG_HOME/opencode/opencode.json` (default ~/.config). */
export function configPath(scope: InstallScope, target: InstallTarget): string {
  if (scope === 'project') return join(target.projectRoot, 'opencode.json');
  const xdg = target.env?.XDG_CONFIG_HOME?.trim();
  return join(xdg || join(target.homeDir, '.config'), 'opencode', 'opencode.json');
}

/** A plugin entry of Cairn's: this build's, or an older build's path of the same package. */
function isCairnPlugin(spec: unknown, ours: string): boolean {
  const value = Array.isArray(spec) ? spec[0] : spec;
  if (typeof value !== 'string') return false;
  if (value === ours) return true;
  return /(harness-opencode|harnesses\/opencode)\/dist\/plugin\.js$/.test(value);
}

function objectAt(config: Config, key: string, path: string): Config {
  const value = config[key];
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CairnError('INVALID_CONFIG', `"${key}" in ${path} must be an object`, {
      hint: `fix ${path} by hand (Cairn changed nothing), then run the command again`,
      details: { path, key },
    });
  }
  return value as Config;
}

function arrayAt(config: Config, key: string, path: string): unknown[] {
  const value = config[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new CairnError('INVALID_CONFIG', `"${key}" in ${path} must be an array`, {
      hint: `fix ${path} by hand (Cairn changed nothing), then run the command again`,
      details: { path, key },
    });
  }
  return value;
}

/**
 * No --root: OpenCode starts local MCP servers in the project folder, where
 * `cairn mcp` finds the project, so a committed opencode.json names no path.
 */
export function mcpCommand(options: InstallTarget): string[] {
  return [...options.cairnCommand, 'mcp'];
}

/**
 * OpenCode adds this line to an opencode.json that lacks it on its first
 * run; a file Cairn creates carries it, so a committed file stays as
 * committed on every teammate's machine.
 */
export const OPENCODE_CONFIG_SCHEMA = 'https://opencode.ai/config.json';

/**
 * Adds Cairn's MCP entry and, with `register` (user scope), its plugin
 * entry; without it (project scope: the committed stub loads the plugin)
 * every Cairn plugin entry goes, older builds' absolute paths included.
 */
export function addCairn(
  config: Config,
  path: string,
  plugin: string,
  command: string[],
  register = true,
): Config {
  const plugins = arrayAt(config, 'plugin', path);
  const mcp = objectAt(config, 'mcp', path);
  const kept = plugins.filter(
    (spec) => !isCairnPlugin(spec, plugin) || (register && spec === plugin),
  );
  if (register && !kept.includes(plugin)) kept.push(plugin);
  const existing = objectAt(mcp, MCP_SERVER_NAME, path);
  // The user's own additions to the entry (env, timeout) survive a reinstall.
  const server = { ...existing, type: 'local', command, enabled: true };
  const schema = Object.keys(config).length === 0 ? { $schema: OPENCODE_CONFIG_SCHEMA } : {};
  const next: Config = {
    ...schema,
    ...config,
    plugin: kept,
    mcp: { ...mcp, [MCP_SERVER_NAME]: server },
  };
  if (kept.length === 0) delete next.plugin;
  return next;
}

/**
 * Removes Cairn's plugin and MCP entries; undefined when nothing else is
 * left but the `$schema` line (the file goes).
 */
export function removeCairn(config: Config, path: string, plugin: string): Config | undefined {
  const next = { ...config };
  const plugins = arrayAt(config, 'plugin', path).filter((spec) => !isCairnPlugin(spec, plugin));
  if (plugins.length > 0) next.plugin = plugins;
  else delete next.plugin;
  const mcp = { ...objectAt(config, 'mcp', path) };
  delete mcp[MCP_SERVER_NAME];
  if (Object.keys(mcp).length > 0) next.mcp = mcp;
  else delete next.mcp;
  const rest = Object.keys(next).filter(
    (key) => !(key === '$schema' && next[key] === OPENCODE_CONFIG_SCHEMA),
  );
  return rest.length > 0 ? next : undefined;
}

const NOTES = [
  'OpenCode loads the plugin and starts `cairn mcp` on its next start; check with `opencode mcp list`',
];
const PROJECT_NOTES = [
  ...NOTES,
  `commit opencode.json and ${STUB_RELATIVE_PATH}: they name no path of this machine; each teammate needs \`cairn\` on PATH (npm i -g @cairn/cli)`,
];

/** `<project>/.opencode/plugin/cairn.js`: the committed plugin loader of a project install. */
export function stubPath(target: InstallTarget): string {
  return join(target.projectRoot, STUB_RELATIVE_PATH);
}

const isStub = (text: string | undefined) => text?.startsWith(STUB_MARKER) === true;

/** Whether a scope loads Cairn's plugin: the committed loader, or a plugin entry of Cairn's. */
async function loadsPlugin(
  scope: InstallScope,
  target: InstallTarget,
  plugin: string,
): Promise<boolean> {
  if (scope === 'project' && isStub(await readOptional(stubPath(target)))) return true;
  const path = configPath(scope, target);
  let config: Config;
  try {
    config = parseJsonFile(path, await readOptional(path));
  } catch {
    return false;
  }
  return Array.isArray(config.plugin) && config.plugin.some((spec) => isCairnPlugin(spec, plugin));
}

/**
 * Cairn installed at both scopes: OpenCode loads the plugin twice and the
 * second copy stands down (plugin-instances.ts), so it is harmless; said
 * by install and doctor, with the command that keeps one.
 */
export function bothScopesNote(scope: InstallScope): string {
  const other = scope === 'project' ? 'user' : 'project';
  return `Cairn's OpenCode plugin is also installed at the ${other} scope: OpenCode loads it twice and the second copy stands down, so each project is served once; to keep one, run \`cairn uninstall opencode --scope ${other}\``;
}

export async function installOpencode(
  options: HarnessInstallOptions,
  plugin: string,
): Promise<HarnessInstallReport> {
  const path = configPath(options.scope, options);
  const project = options.scope === 'project';
  const file = await planJsonEdit(path, (config) =>
    addCairn(config, path, plugin, mcpCommand(options), !project),
  );
  const other = project ? 'user' : 'project';
  const notes = [...(project ? PROJECT_NOTES : NOTES)];
  if (await loadsPlugin(other, options, plugin)) notes.push(bothScopesNote(options.scope));
  if (!project) return applyPlan('opencode', options, [file], { notes });
  const stub = stubPath(options);
  const before = await readOptional(stub);
  return applyPlan('opencode', options, [file, { path: stub, before, after: STUB_TEXT }], {
    notes,
  });
}

export async function uninstallOpencode(
  options: HarnessInstallOptions,
  plugin: string,
): Promise<HarnessInstallReport> {
  const path = configPath(options.scope, options);
  const before = await readOptional(path);
  const file: PlannedFile =
    before === undefined
      ? { path, before, after: undefined }
      : await planJsonEdit(path, (config) => removeCairn(config, path, plugin));
  const files = [file];
  if (options.scope === 'project') {
    const stub = stubPath(options);
    const text = await readOptional(stub);
    // A file of the user's own at that path stays.
    files.push({ path: stub, before: text, after: isStub(text) ? undefined : text });
  }
  return applyPlan('opencode', options, files, { uninstall: true });
}

function pluginProblem(spec: string): string | undefined {
  const file = spec.startsWith('file:') ? fileURLToPath(spec) : spec;
  return existsSync(file) ? undefined : `the plugin file ${file} does not exist: reinstall`;
}

export async function opencodeStatus(
  target: InstallTarget,
  plugin: string,
): Promise<HarnessStatus> {
  const details: string[] = [];
  const problems: string[] = [];
  let scope: InstallScope | undefined;
  for (const candidate of ['project', 'user'] as const) {
    const path = configPath(candidate, target);
    const text = await readOptional(path);
    if (text === undefined) continue;
    let config: Config;
    try {
      config = parseJsonFile(path, text);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    const plugins = (Array.isArray(config.plugin) ? config.plugin : []).filter((spec) =>
      isCairnPlugin(spec, plugin),
    );
    const stubText = candidate === 'project' ? await readOptional(stubPath(target)) : undefined;
    const stub = isStub(stubText) ? stubPath(target) : undefined;
    if (stub && stubText !== STUB_TEXT) {
      problems.push(
        `${stub} differs from this Cairn's plugin loader: run \`cairn install opencode\``,
      );
    }
    const mcp = (config.mcp as Config | undefined)?.[MCP_SERVER_NAME] as Config | undefined;
    if (plugins.length === 0 && !stub && !mcp) continue;
    scope ??= candidate;
    const loader = stub
      ? `plugin loader ${stub}`
      : plugins.length
        ? `plugin ${String(plugins[0])}`
        : 'no plugin';
    details.push(`${path}: ${loader}; ${mcp ? 'MCP server "cairn"' : 'no MCP server'}`);
    if (plugins.length === 0 && !stub) {
      problems.push(`${path} registers the MCP server but not the plugin`);
    }
    if (!mcp) problems.push(`${path} loads the plugin but registers no "cairn" MCP server`);
    if (mcp?.enabled === false) problems.push(`${path} disables the "cairn" MCP server`);
    for (const spec of plugins) {
      const problem = typeof spec === 'string' ? pluginProblem(spec) : undefined;
      if (problem) problems.push(problem);
    }
  }
  const both =
    (await loadsPlugin('project', target, plugin)) && (await loadsPlugin('user', target, plugin));
  return {
    harness: 'opencode',
    installed: scope !== undefined,
    ...(scope ? { scope } : {}),
    details,
    problems,
    ...(both ? { notes: [bothScopesNote('project')] } : {}),
  };
}

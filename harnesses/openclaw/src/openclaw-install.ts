import { existsSync } from 'node:fs';
import type {
  HarnessInstallOptions,
  HarnessInstallReport,
  HarnessStatus,
  InstallScope,
} from '@cairn/core';
import { applyPlan, parseJsonFile, planJsonEdit, readOptional } from '@cairn/harness-kit';
import {
  deleteAt,
  isObject,
  type JsonObject,
  objectAt,
  openclawConfigPath,
  PLUGIN_ID,
  pluginDir,
} from './openclaw-config';
import { looksLikeCairnPlugin, movedProjectProblems } from './openclaw-moves';
import { isCairnPackageDir, pluginProblem } from './plugin-location';

/**
 * Load paths other than `dir` that point into Cairn's packages: what older
 * installs wrote, or a package folder that moved away with its project.
 */
function isStaleCairnPath(path: unknown, dir: string): boolean {
  if (path === dir || typeof path !== 'string') return false;
  return isCairnPackageDir(path) || (looksLikeCairnPlugin(path) && !existsSync(path));
}

/** The `cairn mcp` server entry OpenClaw starts (stdio) for the agent's memory tools. */
function mcpServer(options: HarnessInstallOptions): JsonObject {
  const [command, ...prefix] = options.cairnCommand;
  const root = options.scope === 'project' ? ['--root', options.projectRoot] : [];
  return { command, args: [...prefix, 'mcp', ...root] };
}

/** What `openclaw plugins install --link <dir>` writes, plus hook access, the memory slot and the MCP server. */
function addCairn(config: JsonObject, options: HarnessInstallOptions, dir: string): JsonObject {
  const plugins = objectAt(config, ['plugins']);
  const load = objectAt(plugins, ['load']);
  const paths = Array.isArray(load.paths) ? (load.paths as unknown[]) : [];
  const kept = paths.filter((path) => !isStaleCairnPath(path, dir));
  if (!kept.includes(dir) || kept.length !== paths.length) {
    load.paths = kept.includes(dir) ? kept : [...kept, dir];
  }
  if (Array.isArray(plugins.allow) && !plugins.allow.includes(PLUGIN_ID)) {
    plugins.allow = [...plugins.allow, PLUGIN_ID];
  }
  const entry = objectAt(plugins, ['entries', PLUGIN_ID]);
  entry.enabled = true;
  objectAt(entry, ['hooks']).allowConversationAccess = true;
  const pluginConfig = objectAt(entry, ['config']);
  if (options.scope === 'project') pluginConfig.projectRoot = options.projectRoot;
  else delete pluginConfig.projectRoot;
  const binding = options.env?.CAIRN_SQLITE_BINDING;
  if (binding) pluginConfig.sqliteBinding = binding;
  if (Object.keys(pluginConfig).length === 0) delete entry.config;
  objectAt(plugins, ['slots']).memory = PLUGIN_ID;
  objectAt(config, ['mcp', 'servers'])[PLUGIN_ID] = mcpServer(options);
  return config;
}

function removeCairn(config: JsonObject, dir: string): JsonObject | undefined {
  const plugins = isObject(config.plugins) ? config.plugins : undefined;
  const load = plugins && isObject(plugins.load) ? plugins.load : undefined;
  if (load && Array.isArray(load.paths)) {
    load.paths = load.paths.filter((path) => path !== dir && !isStaleCairnPath(path, dir));
    if ((load.paths as unknown[]).length === 0) deleteAt(config, ['plugins', 'load', 'paths']);
  }
  if (plugins && Array.isArray(plugins.allow)) {
    plugins.allow = plugins.allow.filter((id) => id !== PLUGIN_ID);
  }
  deleteAt(config, ['plugins', 'entries', PLUGIN_ID]);
  const slots = plugins && isObject(plugins.slots) ? plugins.slots : undefined;
  if (slots?.memory === PLUGIN_ID) deleteAt(config, ['plugins', 'slots', 'memory']);
  deleteAt(config, ['mcp', 'servers', PLUGIN_ID]);
  return Object.keys(config).length === 0 ? undefined : config;
}

const NOTES = [
  'OpenClaw runs on Node >= 24.16: build better-sqlite3 for it and set CAIRN_SQLITE_BINDING (see the README of @cairn/harness-openclaw)',
  'a running gateway picks the plugin up on its next start (`openclaw gateway restart`)',
];

export async function installOpenclaw(
  options: HarnessInstallOptions,
): Promise<HarnessInstallReport> {
  const path = openclawConfigPath(options);
  const dir = pluginDir();
  const file = await planJsonEdit(path, (config) => addCairn(config, options, dir));
  return applyPlan('openclaw', options, [file], { notes: NOTES });
}

export async function uninstallOpenclaw(
  options: HarnessInstallOptions,
): Promise<HarnessInstallReport> {
  const path = openclawConfigPath(options);
  const dir = pluginDir();
  const before = await readOptional(path);
  // Nothing of Cairn's and no file: nothing to plan (and no empty file to create).
  if (before === undefined) return applyPlan('openclaw', options, [], { uninstall: true });
  const file = await planJsonEdit(path, (config) => removeCairn(config, dir));
  return applyPlan('openclaw', options, [file], { uninstall: true });
}

export async function openclawStatus(
  options: Omit<HarnessInstallOptions, 'dryRun'>,
): Promise<HarnessStatus> {
  const path = openclawConfigPath(options);
  const config = parseJsonFile(path, await readOptional(path));
  const plugins = isObject(config.plugins) ? config.plugins : {};
  const entries = isObject(plugins.entries) ? plugins.entries : {};
  const entry = isObject(entries[PLUGIN_ID]) ? entries[PLUGIN_ID] : undefined;
  const load = isObject(plugins.load) ? plugins.load : {};
  const paths: unknown[] = Array.isArray(load.paths) ? load.paths : [];
  const servers = isObject(config.mcp) && isObject(config.mcp.servers) ? config.mcp.servers : {};
  const hooks = entry && isObject(entry.hooks) ? entry.hooks : {};
  const pluginConfig = entry && isObject(entry.config) ? entry.config : {};
  const slots = isObject(plugins.slots) ? plugins.slots : {};
  const details: string[] = [];
  const problems: string[] = [];
  const cairnPaths = paths.filter((p): p is string => p === pluginDir() || isStaleCairnPath(p, ''));
  for (const dir of cairnPaths) details.push(`${path}: plugin linked from ${dir}`);
  if (entry)
    details.push(`${path}: plugins.entries.${PLUGIN_ID} (enabled: ${String(entry.enabled)})`);
  if (isObject(servers[PLUGIN_ID])) details.push(`${path}: mcp.servers.${PLUGIN_ID}`);
  const installed = entry !== undefined;
  if (installed) {
    // OpenClaw answers "Plugin not found: cairn" unless one linked folder holds the plugin.
    if (!cairnPaths.some((dir) => pluginProblem(dir) === undefined)) {
      const why =
        cairnPaths.map((dir) => pluginProblem(dir)).join('; ') ||
        'no plugins.load.paths entry points to it';
      problems.push(
        `OpenClaw cannot load the plugin (${why}): run \`cairn install openclaw\` again`,
      );
    }
    if (entry.enabled === false)
      problems.push('the plugin is disabled (plugins.entries.cairn.enabled)');
    if (hooks.allowConversationAccess !== true) {
      problems.push('hooks.allowConversationAccess is not set: prompt and end hooks are blocked');
    }
    if (slots.memory !== PLUGIN_ID)
      problems.push(`the memory slot holds ${String(slots.memory ?? 'memory-core')}`);
    if (!isObject(servers[PLUGIN_ID]))
      problems.push('no mcp.servers.cairn: the agent has no memory tools');
    problems.push(...movedProjectProblems(path, pluginConfig, servers, paths));
  }
  const scope: InstallScope = typeof pluginConfig.projectRoot === 'string' ? 'project' : 'user';
  return { harness: 'openclaw', installed, ...(installed ? { scope } : {}), details, problems };
}

import { join } from 'node:path';

/** Where a project install puts the plugin loader; OpenCode loads `.opencode/plugin/*.{js,ts}`. */
export const STUB_RELATIVE_PATH = join('.opencode', 'plugin', 'cairn.js');

/** The first line of the loader: how install, uninstall and status know the file is Cairn's. */
export const STUB_MARKER = '// Cairn for OpenCode: written by `cairn install opencode`. Commit it.';

/**
 * The committed plugin file of a project install. It names no path of any
 * machine: at run time it looks for an executable `cairn` in the absolute
 * PATH entries (as `npm i -g @cairn/cli` links it), follows the link to the
 * CLI, and imports `@cairn/harness-opencode/plugin` as installed with it.
 * PATH entries and CLIs inside the project are skipped, so nothing from the
 * repository is imported. No `cairn` found: one line in OpenCode's log and
 * no hooks (fail open).
 */
export const STUB_TEXT = `${STUB_MARKER}
// It names no path of any machine: it finds the \`cairn\` on PATH (npm i -g
// @cairn/cli), follows its link to the CLI and imports the OpenCode plugin
// installed with it. Nothing inside this project is imported or run.
// OpenCode calls every function a plugin module exports: export one only.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, isAbsolute, join, parse, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const NAMES = process.platform === 'win32' ? ['cairn.cmd', 'cairn.exe', 'cairn'] : ['cairn'];
const PLUGIN = '@cairn/harness-opencode/plugin';

function real(path) {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function inside(path, roots) {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

function executable(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The plugin installed with one \`cairn\`: beside its real bin.cjs, or under an npm prefix (Windows shims). */
function pluginOf(bin) {
  const from = [bin, join(dirname(bin), 'node_modules', '@cairn', 'cli', 'package.json')];
  for (const base of from) {
    try {
      return createRequire(base).resolve(PLUGIN);
    } catch {}
  }
  return undefined;
}

function findCairnPlugin(directories, path = process.env.PATH ?? '') {
  const roots = directories
    .filter((dir) => typeof dir === 'string' && dir !== '' && dir !== parse(dir).root)
    .map((dir) => real(dir) ?? dir);
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir) || inside(real(dir) ?? dir, roots)) continue;
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (!executable(candidate)) continue;
      const bin = real(candidate);
      if (!bin || inside(bin, roots)) continue;
      const plugin = pluginOf(bin);
      if (plugin && !inside(real(plugin) ?? plugin, roots)) return plugin;
    }
  }
  return undefined;
}

async function log(input, message) {
  await input.client?.app
    ?.log({ body: { service: 'cairn', level: 'warn', message } })
    ?.catch?.(() => undefined);
}

export const CairnPlugin = async (input) => {
  const plugin = findCairnPlugin([input.directory, input.worktree]);
  if (!plugin) {
    await log(input, 'cairn: no \`cairn\` with its OpenCode plugin on PATH (npm i -g @cairn/cli); Cairn is off');
    return {};
  }
  try {
    const module = await import(pathToFileURL(plugin).href);
    return await module.CairnPlugin(input);
  } catch (error) {
    await log(input, \`cairn: cannot load \${plugin}: \${error?.message ?? error}\`);
    return {};
  }
};
`;

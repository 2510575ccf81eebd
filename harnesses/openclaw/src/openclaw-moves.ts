import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CAIRN_DIR } from '@cairn/core';
import { isObject, type JsonObject, PLUGIN_ID } from './openclaw-config';

/**
 * What a moved or deleted project leaves in openclaw.json. A project-scope
 * install pins the plugin (`plugins.entries.cairn.config.projectRoot`) and
 * the MCP server (`--root`) to the project's folder, and links the plugin
 * from the folder Cairn is installed in (inside the project when Cairn is
 * one of its dependencies). After `mv`, OpenClaw loads no plugin or serves
 * a folder that is gone, and says nothing: these are doctor's findings.
 */

/** A linked folder that looks like Cairn's OpenClaw package (`.../@cairn/harness-openclaw`, `harnesses/openclaw`). */
export function looksLikeCairnPlugin(path: string): boolean {
  return /(?:@cairn[/\\]harness-openclaw|harnesses[/\\]openclaw)[/\\]?$/.test(path);
}

const holdsProject = (root: string) => existsSync(join(root, CAIRN_DIR));

const FIX_ROOT = "run `cairn install openclaw --scope project` in the project's folder";

/** The `--root` of Cairn's MCP server entry, if it names one. */
function serverRoot(server: unknown): string | undefined {
  const args = isObject(server) && Array.isArray(server.args) ? server.args : [];
  const at = args.indexOf('--root');
  const root = at >= 0 ? args[at + 1] : undefined;
  return typeof root === 'string' ? root : undefined;
}

export function movedProjectProblems(
  path: string,
  pluginConfig: JsonObject,
  servers: JsonObject,
  loadPaths: unknown[],
): string[] {
  const problems: string[] = [];
  const root = pluginConfig.projectRoot;
  if (typeof root === 'string' && !holdsProject(root)) {
    problems.push(
      `${path}: plugins.entries.${PLUGIN_ID}.config.projectRoot is ${root}, which holds no ${CAIRN_DIR}/ (the project moved or was deleted?): the plugin records nothing; ${FIX_ROOT}`,
    );
  }
  const mcpRoot = serverRoot(servers[PLUGIN_ID]);
  if (mcpRoot !== undefined && mcpRoot !== root && !holdsProject(mcpRoot)) {
    problems.push(
      `${path}: mcp.servers.${PLUGIN_ID} serves ${mcpRoot}, which holds no ${CAIRN_DIR}/ (the project moved?): ${FIX_ROOT}`,
    );
  }
  for (const dir of loadPaths) {
    if (typeof dir === 'string' && looksLikeCairnPlugin(dir) && !existsSync(dir)) {
      problems.push(
        `${path}: plugins.load.paths links ${dir}, which no longer exists (moved with the project?): OpenClaw loads no Cairn plugin from it; run \`cairn install openclaw\``,
      );
    }
  }
  return problems;
}

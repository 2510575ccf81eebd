import type { PlannedFile } from '@cairn/harness-kit';
import { readOptional } from '@cairn/harness-kit';
import {
  checkTomlEdit,
  parseToml,
  removeRegion,
  removeTables,
  setRegion,
  tomlString,
} from './config-toml';
import type { CairnHookEntry } from './hooks-file';

/** One change to a config.toml: the text edit, and how to take its entries out of a parsed config. */
export interface TomlEdit {
  edit(text: string): string;
  strip(config: Record<string, unknown>): Record<string, unknown>;
}

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Deletes `config[path...]`, then the parents the deletion left empty. */
function deletePath(config: Table, path: string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in config)) return;
  if (rest.length === 0) {
    delete config[head];
    return;
  }
  const child = config[head];
  if (!isTable(child)) return;
  deletePath(child, rest);
  if (Object.keys(child).length === 0) delete config[head];
}

export const MCP_SERVER_NAME = 'cairn';
const MCP_LABEL = 'mcp server (written by `cairn install codex`)';

export function mcpServerLines(cairnCommand: string[]): string[] {
  const [command = 'cairn', ...args] = cairnCommand;
  return [
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `command = ${tomlString(command)}`,
    `args = [${[...args, 'mcp'].map(tomlString).join(', ')}]`,
    // Codex otherwise asks before each tool call, which fails under approval_policy = "never".
    'default_tools_approval_mode = "approve"',
  ];
}

/** `[mcp_servers.cairn]` set to `lines`, or removed when `lines` is undefined. */
export function mcpServerEdit(path: string, lines: string[] | undefined): TomlEdit {
  const owned = (table: string[]) => table[0] === 'mcp_servers' && table[1] === MCP_SERVER_NAME;
  return {
    edit(text) {
      const without = removeTables(removeRegion(path, text, MCP_LABEL), owned);
      return lines ? setRegion(path, without, MCP_LABEL, lines) : without;
    },
    strip(config) {
      deletePath(config, ['mcp_servers', MCP_SERVER_NAME]);
      return config;
    },
  };
}

const trustLabel = (hooksFile: string) => `hook trust for ${hooksFile}`;

/**
 * Cairn's `[hooks.state."<key>"] trusted_hash` entries for one hooks.json:
 * set to `entries`, or removed when undefined. `staleKeys` are keys of
 * Cairn hooks before the edit, whose stray entries are removed too.
 */
export function hookTrustEdit(
  path: string,
  hooksFile: string,
  entries: CairnHookEntry[] | undefined,
  staleKeys: string[],
): TomlEdit {
  const keys = new Set([...staleKeys, ...(entries ?? []).map((entry) => entry.key)]);
  const owned = (table: string[]) =>
    table.length === 3 && table[0] === 'hooks' && table[1] === 'state' && keys.has(table[2]!);
  const lines = (entries ?? []).flatMap((entry) => [
    `[hooks.state.${tomlString(entry.key)}]`,
    `trusted_hash = ${tomlString(entry.trustedHash)}`,
  ]);
  return {
    edit(text) {
      const without = removeTables(removeRegion(path, text, trustLabel(hooksFile)), owned);
      return lines.length > 0 ? setRegion(path, without, trustLabel(hooksFile), lines) : without;
    },
    strip(config) {
      for (const key of keys) deletePath(config, ['hooks', 'state', key]);
      return config;
    },
  };
}

/** Plans the edits of one config.toml; a file left empty by uninstall is deleted. */
export async function planTomlEdits(path: string, edits: TomlEdit[]): Promise<PlannedFile> {
  const before = await readOptional(path);
  parseToml(path, before);
  const after = edits.reduce((text, change) => change.edit(text), before ?? '');
  if (after === before) return { path, before, after: before };
  if (after.trim() === '') return { path, before, after: undefined };
  checkTomlEdit(path, before, after, (config) =>
    edits.reduce((current, change) => change.strip(current), config),
  );
  return { path, before, after };
}

/** Whether the user's config.toml marks `root` as a trusted project. */
export function projectTrusted(userConfig: Record<string, unknown>, roots: string[]): boolean {
  const projects = userConfig.projects;
  if (!isTable(projects)) return false;
  return roots.some((root) => {
    const entry = projects[root];
    return isTable(entry) && entry.trust_level === 'trusted';
  });
}

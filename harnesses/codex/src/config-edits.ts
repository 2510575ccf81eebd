import type { PlannedFile } from '@cairn/harness-kit';
import { readOptional } from '@cairn/harness-kit';
import { checkTomlEdit, parseToml, tomlString } from './config-toml';
import type { CairnHookEntry } from './hooks-file';
import { type OwnedTable, removeRegion, removeTables, setRegion } from './toml-regions';

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
export const MCP_LABEL = 'mcp server (written by `cairn install codex`)';
export const mcpOwned: OwnedTable = (table) =>
  table[0] === 'mcp_servers' && table[1] === MCP_SERVER_NAME;

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
  return {
    edit(text) {
      const without = removeTables(text, mcpOwned);
      return lines
        ? setRegion(path, without, MCP_LABEL, lines, mcpOwned)
        : removeRegion(path, without, MCP_LABEL, mcpOwned);
    },
    strip(config) {
      deletePath(config, ['mcp_servers', MCP_SERVER_NAME]);
      return config;
    },
  };
}

const TRUST_PREFIX = 'hook trust for ';
export const trustLabel = (hooksFile: string) => `${TRUST_PREFIX}${hooksFile}`;

/** The hooks file of a `hook trust for <file>` region label, or undefined for another label. */
export function trustLabelFile(label: string): string | undefined {
  return label.startsWith(TRUST_PREFIX) ? label.slice(TRUST_PREFIX.length) : undefined;
}

const stateKey = (table: string[]) =>
  table.length === 3 && table[0] === 'hooks' && table[1] === 'state' ? table[2] : undefined;

/**
 * The trust entries of one hooks file that are Cairn's: every
 * `[hooks.state."<file>:…"]` key but those of the user's own handlers in
 * that file (`userKeys`), whose trust is the user's.
 */
export function trustOwned(hooksFile: string, userKeys: ReadonlySet<string>): OwnedTable {
  return (table) => {
    const key = stateKey(table);
    if (key === undefined) return false;
    return key.startsWith(`${hooksFile}:`) && !userKeys.has(key);
  };
}

function stripTrust(config: Table, owned: OwnedTable): Table {
  const state = (config.hooks as Table | undefined)?.state;
  if (!isTable(state)) return config;
  for (const key of Object.keys(state)) {
    if (owned(['hooks', 'state', key])) deletePath(config, ['hooks', 'state', key]);
  }
  return config;
}

/**
 * Cairn's `[hooks.state."<key>"] trusted_hash` entries for one hooks.json:
 * set to `entries`, or removed when undefined. `staleKeys` are keys of
 * Cairn hooks before the edit, whose stray entries (outside the region) are
 * removed too; `userKeys` are the keys of the user's own handlers in the
 * file, whose trust entries stay wherever they are.
 */
export function hookTrustEdit(
  path: string,
  hooksFile: string,
  entries: CairnHookEntry[] | undefined,
  staleKeys: string[],
  userKeys: ReadonlySet<string> = new Set(),
): TomlEdit {
  const keys = new Set([...staleKeys, ...(entries ?? []).map((entry) => entry.key)]);
  const stray: OwnedTable = (table) => keys.has(stateKey(table) ?? '');
  const owned = trustOwned(hooksFile, userKeys);
  const label = trustLabel(hooksFile);
  const lines = (entries ?? []).flatMap((entry) => [
    `[hooks.state.${tomlString(entry.key)}]`,
    `trusted_hash = ${tomlString(entry.trustedHash)}`,
  ]);
  return {
    edit(text) {
      const without = removeTables(text, stray);
      return lines.length > 0
        ? setRegion(path, without, label, lines, owned)
        : removeRegion(path, without, label, owned);
    },
    strip(config) {
      for (const key of keys) deletePath(config, ['hooks', 'state', key]);
      return stripTrust(config, owned);
    },
  };
}

/**
 * Removes the region of Cairn's trust entries for another hooks file that
 * is gone or no longer runs Cairn (a project that moved or was deleted):
 * its entries go, anything else it holds stays.
 */
export function staleTrustEdit(
  path: string,
  hooksFile: string,
  userKeys: ReadonlySet<string>,
): TomlEdit {
  const owned = trustOwned(hooksFile, userKeys);
  return {
    edit: (text) => removeRegion(path, text, trustLabel(hooksFile), owned),
    strip: (config) => stripTrust(config, owned),
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

import { CLAUDE_CODE_HOOK_EVENTS, type ClaudeCodeHookEvent } from './hook-payloads';

/**
 * Pure edits of Claude Code's JSON files (settings.json, hooks.json,
 * .mcp.json, ~/.claude.json). Cairn's entries are recognised by what they
 * run (`... hook claude-code <Event>`, the `cairn` MCP server, the
 * `mcp__cairn` permission), so a second install finds and keeps them and
 * uninstall removes exactly them; everything else is left as it was.
 */
type Json = Record<string, unknown>;

export const MCP_SERVER_NAME = 'cairn';
/** Allows every tool of the `cairn` MCP server without a prompt (Claude Code's rule syntax). */
export const MCP_PERMISSION = `mcp__${MCP_SERVER_NAME}`;

const SAFE_WORD = /^[A-Za-z0-9_\-./:=@%+,]+$/;

/** Quotes one argument for the POSIX shell Claude Code runs hook commands in. */
export function shellQuote(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export function hookCommand(cairnCommand: string[], event: ClaudeCodeHookEvent): string {
  return [...cairnCommand, 'hook', 'claude-code', event].map(shellQuote).join(' ');
}

const CAIRN_HOOK = new RegExp(`(?:^|\\s)hook claude-code (${CLAUDE_CODE_HOOK_EVENTS.join('|')})$`);

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isCairnHook(hook: unknown): boolean {
  return isRecord(hook) && typeof hook.command === 'string' && CAIRN_HOOK.test(hook.command.trim());
}

function groupsOf(hooks: Json, event: string): unknown[] {
  const groups = hooks[event];
  return Array.isArray(groups) ? groups : [];
}

/** The event's matcher groups without Cairn's hooks, and where Cairn's first group stood. */
function stripEvent(groups: unknown[]): { kept: unknown[]; at: number | undefined } {
  const kept: unknown[] = [];
  let at: number | undefined;
  for (const group of groups) {
    if (!isRecord(group) || !Array.isArray(group.hooks) || !group.hooks.some(isCairnHook)) {
      kept.push(group);
      continue;
    }
    at ??= kept.length;
    const others = group.hooks.filter((hook) => !isCairnHook(hook));
    if (others.length > 0) kept.push({ ...group, hooks: others });
  }
  return { kept, at };
}

/** Settings (or a plugin's hooks.json) with one Cairn hook per event, in place of any older one. */
export function withCairnHooks(settings: Json, cairnCommand: string[]): Json {
  const hooks = isRecord(settings.hooks) ? { ...settings.hooks } : {};
  for (const event of CLAUDE_CODE_HOOK_EVENTS) {
    const { kept, at } = stripEvent(groupsOf(hooks, event));
    const ours = { hooks: [{ type: 'command', command: hookCommand(cairnCommand, event) }] };
    kept.splice(at ?? kept.length, 0, ours);
    hooks[event] = kept;
  }
  return { ...settings, hooks };
}

export function withoutCairnHooks(settings: Json): Json {
  if (!isRecord(settings.hooks)) return settings;
  const hooks: Json = { ...settings.hooks };
  for (const event of Object.keys(hooks)) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    const { kept, at } = stripEvent(groups);
    if (at === undefined) continue;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  const { hooks: _, ...rest } = settings;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

/** The events that run a Cairn hook, and the commands they run. */
export function cairnHooksIn(settings: Json): Map<string, string> {
  const found = new Map<string, string>();
  const hooks = isRecord(settings.hooks) ? settings.hooks : {};
  for (const event of Object.keys(hooks)) {
    for (const group of groupsOf(hooks, event)) {
      if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
      const hook = group.hooks.find(isCairnHook) as { command: string } | undefined;
      if (hook) found.set(event, hook.command);
    }
  }
  return found;
}

/** `object[key]` (an array of strings) with `item` added once. */
export function withListItem(object: Json, key: string, item: string): Json {
  const list = Array.isArray(object[key]) ? (object[key] as unknown[]) : [];
  return list.includes(item) ? object : { ...object, [key]: [...list, item] };
}

/** `object[key]` without `item`; the key goes when the list becomes empty. */
export function withoutListItem(object: Json, key: string, item: string): Json {
  const list = object[key];
  if (!Array.isArray(list) || !list.includes(item)) return object;
  const { [key]: _, ...rest } = object;
  const left = list.filter((entry) => entry !== item);
  return left.length > 0 ? { ...rest, [key]: left } : rest;
}

export function withPermission(settings: Json): Json {
  const permissions = isRecord(settings.permissions) ? settings.permissions : {};
  return { ...settings, permissions: withListItem(permissions, 'allow', MCP_PERMISSION) };
}

export function withoutPermission(settings: Json): Json {
  if (!isRecord(settings.permissions)) return settings;
  const permissions = withoutListItem(settings.permissions, 'allow', MCP_PERMISSION);
  const { permissions: _, ...rest } = settings;
  return Object.keys(permissions).length > 0 ? { ...rest, permissions } : rest;
}

export function hasPermission(settings: Json): boolean {
  const allow = isRecord(settings.permissions) ? settings.permissions.allow : undefined;
  return Array.isArray(allow) && allow.includes(MCP_PERMISSION);
}

/** The stdio server entry, as `claude mcp add` writes it. */
export function mcpServerEntry(cairnCommand: string[], projectRoot?: string): Json {
  const [command, ...prefix] = cairnCommand;
  const root = projectRoot === undefined ? [] : ['--root', projectRoot];
  return { type: 'stdio', command, args: [...prefix, 'mcp', ...root], env: {} };
}

export function withMcpServer(config: Json, entry: Json): Json {
  const servers = isRecord(config.mcpServers) ? config.mcpServers : {};
  return { ...config, mcpServers: { ...servers, [MCP_SERVER_NAME]: entry } };
}

export function withoutMcpServer(config: Json): Json {
  if (!isRecord(config.mcpServers) || !(MCP_SERVER_NAME in config.mcpServers)) return config;
  const { [MCP_SERVER_NAME]: _, ...servers } = config.mcpServers;
  const { mcpServers: __, ...rest } = config;
  return Object.keys(servers).length > 0 ? { ...rest, mcpServers: servers } : rest;
}

export function mcpServerIn(config: Json): Json | undefined {
  const servers = isRecord(config.mcpServers) ? config.mcpServers : {};
  const entry = servers[MCP_SERVER_NAME];
  return isRecord(entry) ? entry : undefined;
}

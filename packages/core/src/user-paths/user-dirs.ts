import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Cairn's per-user folders, after the XDG base directory spec: a variable
 * that is unset, empty or relative is ignored (a relative one would be read
 * from the current folder, a project's), and the default under the home is
 * used. `homeDir` defaults to the given environment's `HOME`, else the
 * password database's home.
 */
function base(
  env: NodeJS.ProcessEnv,
  value: string | undefined,
  homeDir: string | undefined,
  fallback: string[],
): string {
  // The given environment's HOME, not this process's: the hook server answers events of other HOMEs.
  return value && isAbsolute(value) ? value : join(homeDir ?? (env.HOME || homedir()), ...fallback);
}

/** `$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn`: the code cache and the hook server's socket. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return join(base(env, env.XDG_CACHE_HOME, homeDir, ['.cache']), 'cairn');
}

/** `$XDG_STATE_HOME/cairn`, else `~/.local/state/cairn`: the trust store, the MCP token, install records. */
export function userStateDir(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return join(base(env, env.XDG_STATE_HOME, homeDir, ['.local', 'state']), 'cairn');
}

/** `$XDG_CONFIG_HOME/cairn`, else `~/.config/cairn`: the user config. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return join(base(env, env.XDG_CONFIG_HOME, homeDir, ['.config']), 'cairn');
}

/** The MCP server's bearer token, in the state folder (`@cairn/mcp` reads and writes it). */
export const MCP_TOKEN_FILE = 'mcp-token';

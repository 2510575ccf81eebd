import { homedir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';

/*
 * Cairn's per-user paths: where its folders are, and what can be wrong with
 * a per-user path (owner-rule.ts finds it), with the command that fixes it.
 */

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

/** A per-user path that fails the ownership rule (owner-rule.ts), and the command that fixes it. */
export type UserPathProblemCode =
  | 'missing'
  | 'owner'
  | 'writable'
  | 'readable'
  | 'link'
  | 'type'
  | 'unchecked';

export interface UserPathProblem {
  /** `missing`: the path (or a folder above it) does not exist; everything above that is sound. */
  code: UserPathProblemCode;
  /** The file or folder at fault: the path itself or a folder above it. */
  path: string;
  /** What is wrong with it, a phrase that follows the path ("can be written by group or others"). */
  problem: string;
  /** The command that fixes it: `chmod go-w /x`, `chown <user> /x`. */
  fix: string;
}

export function accessProblem(path: string, error: unknown): UserPathProblem {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  if (code === 'ENOENT') {
    return {
      code: 'missing',
      path,
      problem: 'does not exist',
      fix: `mkdir -m 700 -p ${shellQuote(path)}`,
    };
  }
  return {
    code: 'unchecked',
    path,
    problem: `cannot be checked (${code})`,
    fix: `ls -ld ${shellQuote(path)}`,
  };
}

export function problemOf(
  code: 'owner' | 'writable' | 'readable' | 'link' | 'type',
  path: string,
  uid?: number,
  phrase?: string,
): UserPathProblem {
  const quoted = shellQuote(path);
  switch (code) {
    case 'owner':
      return {
        code,
        path,
        problem: `belongs to another user (uid ${uid}), not to you or root`,
        fix: `chown ${currentUserName()} ${quoted}`,
      };
    case 'writable':
      return {
        code,
        path,
        problem: 'can be written by group or others',
        fix: `chmod go-w ${quoted}`,
      };
    case 'readable':
      return {
        code,
        path,
        problem: 'can be read by group or others',
        fix: `chmod go-rwx ${quoted}`,
      };
    case 'link':
      return { code, path, problem: 'is a symbolic link', fix: `rm ${quoted}` };
    default:
      return {
        code,
        path,
        problem: phrase ?? 'is of the wrong type',
        fix: `mv ${quoted} ${shellQuote(`${path}.old`)}`,
      };
  }
}

function currentUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return String(process.getuid?.() ?? '');
  }
}

/** `path` as one shell word. */
export function shellQuote(path: string): string {
  return /^[\w/.,:@%+=-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

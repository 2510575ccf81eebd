import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CairnError,
  checkUserPath,
  ensureUserDir,
  MCP_TOKEN_FILE,
  type UserPathProblem,
  userStateDir,
} from '@cairn/core';

/**
 * The bearer token of Cairn's local HTTP servers (`cairn mcp --http`): a
 * file only its user can read, so another local user, or a web page the
 * user visits, cannot call the tools even though the port is reachable.
 */
export interface McpTokenOptions {
  /** Reads `XDG_STATE_HOME`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Default `os.homedir()`. */
  homeDir?: string;
}

/** `$XDG_STATE_HOME/cairn/mcp-token`, else `~/.local/state/cairn/mcp-token`. */
export function mcpTokenPath(options: McpTokenOptions = {}): string {
  const { env = process.env, homeDir = homedir() } = options;
  return join(userStateDir(env, homeDir), MCP_TOKEN_FILE);
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const isPosix = typeof process.getuid === 'function';

function unsafe(path: string, reason: string, hint: string): CairnError {
  return new CairnError('INVALID_CONFIG', `Refusing to use the MCP token file ${path}: ${reason}`, {
    hint,
    details: { path, reason },
  });
}

/** The refusal for a token file or folder that fails the ownership rule (see docs/SECURITY.md). */
function unsound(path: string, problem: UserPathProblem): CairnError {
  const where = problem.path === path ? 'it' : problem.path;
  return unsafe(
    path,
    `${where} ${problem.problem}`,
    `run \`${problem.fix}\`, or set XDG_STATE_HOME to a folder of your own`,
  );
}

const ROTATE_HINT = 'delete it, or run `cairn mcp token --rotate` to write a new one';

/**
 * The folder (created when missing) must pass the ownership rule: it and
 * every folder above it are the user's or root's and closed to writing by
 * others, since anyone who can write one of them can swap the token.
 */
function checkDir(path: string): void {
  const problem = ensureUserDir(dirname(path));
  if (problem) throw unsound(path, problem);
}

/** Reads the token, refusing a file that is a symlink, someone else's, or readable by others. */
function readToken(path: string): string | undefined {
  const problem = checkUserPath(path, { kind: 'file', private: true });
  if (problem?.code === 'missing') return undefined;
  if (problem && problem.path !== path) throw unsound(path, problem);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw unsafe(path, 'it is a symlink', ROTATE_HINT);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw unsafe(path, 'it is not a regular file', ROTATE_HINT);
    if (isPosix && stat.uid !== process.getuid?.())
      throw unsafe(path, 'it belongs to another user', ROTATE_HINT);
    if (isPosix && (stat.mode & 0o077) !== 0)
      throw unsafe(path, 'group or others can read or write it', `run chmod 600 ${path}`);
    const token = readFileSync(fd, 'utf8').trim();
    if (!TOKEN_PATTERN.test(token)) throw unsafe(path, 'it holds no valid token', ROTATE_HINT);
    return token;
  } finally {
    closeSync(fd);
  }
}

/** 32 random bytes, base64url (43 characters). */
export function generateMcpToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Writes a new token to a temp file (0600, exclusive); `place` moves it to `path`. */
function writeNew(path: string, place: (temp: string) => void): void {
  const dir = dirname(path);
  checkDir(path);
  const temp = join(dir, `.mcp-token.${randomBytes(8).toString('hex')}.tmp`);
  writeFileSync(temp, `${generateMcpToken()}\n`, { flag: 'wx', mode: 0o600 });
  try {
    place(temp);
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // renamed into place
    }
  }
}

/**
 * The token, created on first use. Creation is exclusive (link(2) fails if
 * another process created the file first; then its token is used), so two
 * servers starting at once agree on one token. Throws INVALID_CONFIG when
 * the file or its folder could be read or replaced by someone else.
 */
export function loadOrCreateMcpToken(options: McpTokenOptions = {}): string {
  const path = mcpTokenPath(options);
  checkDir(path);
  const existing = readToken(path);
  if (existing) return existing;
  writeNew(path, (temp) => {
    try {
      linkSync(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  });
  return readToken(path) as string;
}

/** Replaces the token with a new one (servers running with the old one keep it until restarted). */
export function rotateMcpToken(options: McpTokenOptions = {}): string {
  const path = mcpTokenPath(options);
  writeNew(path, (temp) => renameSync(temp, path));
  return readToken(path) as string;
}

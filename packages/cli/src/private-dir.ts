import { lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** `$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn` (a relative XDG value is ignored, as the spec says). */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  return join(base, 'cairn');
}

/**
 * True when `dir` is a real directory (not a symlink) owned by this user
 * that no one else can read or write. A directory that fails is left as it
 * is: it may be someone else's.
 */
export function isPrivateDir(dir: string): boolean {
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) return false;
  if (typeof process.getuid !== 'function') return true; // Windows: no uid or POSIX modes
  return stat.uid === process.getuid() && (stat.mode & 0o077) === 0;
}

/**
 * `dir`, created (mode 0700) when missing, when it is private; undefined
 * when it is not safe to use (someone else's, a link, readable by others).
 */
export function privateDir(dir: string): string | undefined {
  try {
    return isPrivateDir(dir) ? dir : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return isPrivateDir(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

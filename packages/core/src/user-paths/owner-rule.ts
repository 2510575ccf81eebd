import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { accessProblem, problemOf, shellQuote, type UserPathProblem } from './user-dirs';

export type { UserPathProblem, UserPathProblemCode } from './user-dirs';
export { shellQuote } from './user-dirs';

/**
 * The ownership rule for per-user files and folders (cache, state, config,
 * trust store, MCP token, hook socket folder, code cache), after OpenSSH's
 * StrictModes: the path and every folder above it, up to and including the
 * user's home when the path is under it (else up to `/`), belong to the
 * user or root and cannot be written by group or others. A folder others
 * can write passes only when it is sticky (like `/tmp`) and the entry below
 * it belongs to the user or root, since then no one else may rename or
 * remove that entry. A symbolic link above the path is followed and its
 * target checked by the same rule (the link itself must be the user's or
 * root's); the path itself must not be a link unless `followLink` says so.
 * Whoever can change any of these could swap the file or folder for their
 * own between a check and its use, so a path that fails is not used.
 */

export interface UserPathRule {
  /** What the path must be. Default: either. */
  kind?: 'file' | 'directory';
  /** Closed to group and others for reading too (a token, the socket folder, the code cache). */
  private?: boolean;
  /** Accept the path itself being a link (a dotfile manager's) whose target passes the rule. */
  followLink?: boolean;
  /**
   * The home the rule stops at. Default: the password database's, never
   * `$HOME` (a `HOME` under another user's folder must not exempt that
   * folder). Tests pass one.
   */
  home?: string;
}

/** Links followed before giving up, as the kernel's ELOOP limit. */
const MAX_LINKS = 40;
const STICKY = 0o1000;
const GROUP_OTHER_WRITE = 0o022;
const GROUP_OTHER_ANY = 0o077;

interface FolderState {
  uid: number;
  mode: number;
}

/**
 * Folders found sound in this process: the folder and everything above it
 * passed the rule. Only the user or root can make such a folder unsound
 * later, so later checks start below it (a hook's start checks its cache
 * folders with a few `lstat` calls).
 */
const soundFolders = new Map<string, FolderState>();
let homes: string[] | undefined;

interface Walk {
  uid: number;
  rule: UserPathRule;
  links: number;
  /** Set once a folder above the home was let through: later folders are remembered only at or below it. */
  exemptUnder?: string;
}

/**
 * Checks `path` by the ownership rule. Undefined when it passes; otherwise
 * the first problem found from the top, with the command that fixes it. A
 * missing path (or folder above it) is the problem `missing`, returned only
 * when every folder above it passes, so it may be created there. Where the
 * platform has no uids (Windows) every path passes.
 */
export function checkUserPath(path: string, rule: UserPathRule = {}): UserPathProblem | undefined {
  if (typeof process.getuid !== 'function') return undefined;
  const absolute = isAbsolute(path) ? path : `${process.cwd()}/${path}`;
  const queue = absolute.split('/').filter((name) => name !== '' && name !== '.');
  return walk(queue, { uid: process.getuid(), rule, links: 0 });
}

/** Forgets the folders found sound (tests that change a folder after checking below it). */
export function forgetSoundFolders(): void {
  soundFolders.clear();
  homes = undefined;
}

interface Position {
  /** A real folder (no link in it) whose chain passed. */
  dir: string;
  folder: FolderState;
}

/**
 * Walks the components in `queue` from `/` as the kernel resolves them:
 * `..` goes to the parent of the real folder reached so far, a link puts
 * its target's components in front of the rest. Each entry is checked
 * against the folder holding it before it is entered.
 */
function walk(queue: string[], state: Walk): UserPathProblem | undefined {
  let at = startingPoint(queue, state);
  while ('dir' in at && queue.length > 0) {
    const name = queue.shift()!;
    if (name === '..') {
      at = parentOf(at.dir);
      continue;
    }
    const path = at.dir === '/' ? `/${name}` : `${at.dir}/${name}`;
    const final = queue.length === 0;
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch (error) {
      return missingEntryProblem(at, path, queue, state) ?? accessProblem(path, error);
    }
    const problem = entryProblem(at, path, stat, queue, state);
    if (problem) return problem;
    if (stat.isSymbolicLink()) {
      if (final && !state.rule.followLink) return problemOf('link', path);
      const target = linkTarget(path, state);
      if (typeof target !== 'string') return target;
      queue.unshift(...target.split('/').filter((part) => part !== '' && part !== '.'));
      if (isAbsolute(target)) at = startingPoint(queue, state);
      continue;
    }
    if (final) return finalProblem(path, stat, state);
    if (!stat.isDirectory()) return problemOf('type', path, undefined, 'is not a folder');
    at = { dir: path, folder: { uid: stat.uid, mode: stat.mode } };
    remember(path, at.folder, state);
  }
  if (!('dir' in at)) return at;
  // The path ended in `..` or is `/`: the folder reached is the path.
  try {
    return finalProblem(at.dir, lstatSync(at.dir), state);
  } catch (error) {
    return accessProblem(at.dir, error);
  }
}

/**
 * The entry `path` (`stat`) in the folder `at`: the folder may be writable
 * by others only when it is sticky and the entry is the user's or root's,
 * and the entry must be the user's or root's.
 */
function entryProblem(
  at: Position,
  path: string,
  stat: Stats,
  queue: string[],
  state: Walk,
): UserPathProblem | undefined {
  const target = () => resolve(path, ...queue);
  const trusted = stat.uid === state.uid || stat.uid === 0;
  if (!trusted && !exempt(path, target(), state)) return problemOf('owner', path, stat.uid);
  const { mode } = at.folder;
  if ((mode & GROUP_OTHER_WRITE) !== 0 && !((mode & STICKY) !== 0 && trusted)) {
    if (!exempt(at.dir, target(), state)) return problemOf('writable', at.dir);
  }
  return undefined;
}

/**
 * A missing entry may be created only in a folder no one else can write,
 * or a sticky one (where the entry created stays the user's).
 */
function missingEntryProblem(
  at: Position,
  path: string,
  queue: string[],
  state: Walk,
): UserPathProblem | undefined {
  const { mode } = at.folder;
  if ((mode & GROUP_OTHER_WRITE) === 0 || (mode & STICKY) !== 0) return undefined;
  return exempt(at.dir, resolve(path, ...queue), state) ? undefined : problemOf('writable', at.dir);
}

/**
 * Where a walk of `queue` starts: the deepest folder on its way already
 * found sound (its components are consumed), else `/`, checked here. Only
 * a queue without `..` can start below `/`.
 */
function startingPoint(queue: string[], state: Walk): Position | UserPathProblem {
  if (!queue.includes('..')) {
    for (let index = queue.length - 1; index > 0; index -= 1) {
      const dir = `/${queue.slice(0, index).join('/')}`;
      const folder = soundFolders.get(dir);
      if (!folder) continue;
      queue.splice(0, index);
      return { dir, folder };
    }
  }
  const known = soundFolders.get('/');
  if (known) return { dir: '/', folder: known };
  let stat: Stats;
  try {
    stat = lstatSync('/');
  } catch (error) {
    return accessProblem('/', error);
  }
  const folder = { uid: stat.uid, mode: stat.mode };
  if (stat.uid !== state.uid && stat.uid !== 0 && !exempt('/', resolve('/', ...queue), state)) {
    return problemOf('owner', '/', stat.uid);
  }
  remember('/', folder, state);
  return { dir: '/', folder };
}

/** The parent of a real folder the walk reached: its chain was checked on the way down. */
function parentOf(dir: string): Position | UserPathProblem {
  const parent = dirname(dir);
  const known = soundFolders.get(parent);
  if (known) return { dir: parent, folder: known };
  try {
    const stat = lstatSync(parent);
    return { dir: parent, folder: { uid: stat.uid, mode: stat.mode } };
  } catch (error) {
    return accessProblem(parent, error);
  }
}

function linkTarget(link: string, state: Walk): string | UserPathProblem {
  state.links += 1;
  if (state.links > MAX_LINKS) {
    return {
      code: 'link',
      path: link,
      problem: 'leads through too many links',
      fix: `ls -l ${shellQuote(link)}`,
    };
  }
  try {
    return readlinkSync(link);
  } catch (error) {
    return accessProblem(link, error);
  }
}

function finalProblem(path: string, stat: Stats, state: Walk): UserPathProblem | undefined {
  const { kind } = state.rule;
  if (kind === 'file' && !stat.isFile()) {
    return problemOf('type', path, undefined, 'is not a regular file');
  }
  if (kind === 'directory' && !stat.isDirectory()) {
    return problemOf('type', path, undefined, 'is not a folder');
  }
  if ((stat.mode & GROUP_OTHER_WRITE) !== 0) return problemOf('writable', path);
  if (state.rule.private && (stat.mode & GROUP_OTHER_ANY) !== 0) return problemOf('readable', path);
  if (stat.isDirectory()) remember(path, { uid: stat.uid, mode: stat.mode }, state);
  return undefined;
}

function remember(path: string, folder: FolderState, state: Walk): void {
  if ((folder.mode & GROUP_OTHER_WRITE) !== 0) return;
  const exempted = state.exemptUnder;
  if (exempted !== undefined && (state.rule.home !== undefined || !isInside(path, exempted)))
    return;
  soundFolders.set(path, folder);
}

/**
 * True when `component` is a folder strictly above the user's home and
 * `target` lies under that home: what is above a home is the
 * administrator's, and the rule stops at the home, as OpenSSH's does. The
 * home is looked up only here, when a folder above would otherwise fail.
 */
function exempt(component: string, target: string, state: Walk): boolean {
  const given = state.rule.home;
  for (const home of given === undefined ? userHomes() : [resolve(given)]) {
    if (home === component || !isInside(target, home) || !isInside(home, component)) continue;
    state.exemptUnder = home;
    return true;
  }
  return false;
}

function userHomes(): string[] {
  if (homes) return homes;
  homes = [];
  try {
    const home = userInfo().homedir;
    if (!isAbsolute(home) || resolve(home) === '/') return homes;
    homes.push(resolve(home));
    const real = realpathSync(home);
    if (real !== homes[0]) homes.push(real);
  } catch {
    // No password entry (an arbitrary container uid): the rule goes up to `/`.
  }
  return homes;
}

function isInside(path: string, folder: string): boolean {
  return folder === '/' || path === folder || path.startsWith(`${folder}/`);
}

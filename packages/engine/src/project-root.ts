import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CAIRN_DIR, CairnError } from '@cairn/core';

/** Where a command run in some folder finds its project. */
export interface ProjectLocation {
  /** The folder that holds `.cairn/`, or that `cairn init` would create it in. */
  root: string;
  /** True when `root` holds `.cairn/`. */
  initialized: boolean;
  /** The top of the git work tree the folder is in, when it is in one. */
  gitRoot?: string;
  /** The folder the search started from. */
  start: string;
}

const isFolder = (path: string) =>
  statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
// `.git` is a folder in a clone and a file in a linked worktree or a submodule.
const isGitTop = (path: string) =>
  statSync(join(path, '.git'), { throwIfNoEntry: false }) !== undefined;
/** Anyone may create entries in it (`/tmp`, `/var/tmp`: mode o+w). */
const isWorldWritable = (path: string) =>
  ((statSync(path, { throwIfNoEntry: false })?.mode ?? 0) & 0o002) !== 0;

/**
 * Whether the walk up from `origin` may take `folder`'s `.cairn/` or
 * `.git` as the project's. A folder anyone may write to is not: another
 * local user (or a stray process) can create `/tmp/.cairn` there, and every
 * folder below `/tmp` without a `.cairn/` of its own would read and write
 * that memory. In the folder a command ran in, its `.cairn/` counts when
 * the user owns it.
 */
function mayHoldProject(folder: string, origin: string): boolean {
  if (!isWorldWritable(folder)) return true;
  if (folder !== origin) return false;
  const uid = process.getuid?.();
  const owner = statSync(join(folder, CAIRN_DIR), { throwIfNoEntry: false })?.uid;
  return uid === undefined || owner === undefined || owner === uid;
}

/**
 * The project of a folder: the nearest folder at or above it that holds
 * `.cairn/`, looking no higher than the top of its git work tree (a
 * repository is one project; a `.cairn/` above it belongs to something
 * else), and never in a folder anyone may write to above the start (see
 * `mayHoldProject`). When there is none, the project would be the top of
 * the git work tree, or the folder itself outside git: that is where
 * `cairn init` puts `.cairn/`, never a subfolder a command happened to run
 * in.
 */
export function locateProject(start: string): ProjectLocation {
  const origin = resolve(start);
  let current = origin;
  for (;;) {
    if (mayHoldProject(current, origin)) {
      if (isFolder(join(current, CAIRN_DIR))) {
        return { root: current, initialized: true, start: origin, ...gitTopAt(current) };
      }
      if (isGitTop(current)) {
        return { root: current, initialized: false, start: origin, gitRoot: current };
      }
    }
    const parent = dirname(current);
    if (parent === current) return { root: origin, initialized: false, start: origin };
    current = parent;
  }
}

/** The git work tree's top at or above `folder`, as a field, when there is one. */
function gitTopAt(folder: string): { gitRoot?: string } {
  let current = folder;
  for (;;) {
    if (isGitTop(current)) return { gitRoot: current };
    const parent = dirname(current);
    if (parent === current) return {};
    current = parent;
  }
}

/**
 * The project root of a folder (see `locateProject`): the folder holding
 * `.cairn/`, else the top of its git work tree, else the folder itself.
 */
export function findProjectRoot(start: string): string {
  return locateProject(start).root;
}

/**
 * The error of a command that needs a project where there is none: it
 * names the folder `cairn init` would use, and nothing was created.
 */
export function notInitializedError(location: ProjectLocation): CairnError {
  const where =
    location.start === location.root
      ? location.root
      : `${location.start} or above it (up to ${location.root})`;
  return new CairnError(
    'NOT_FOUND',
    `not initialized: run \`cairn init\` (no .cairn/ in ${where})`,
    {
      hint: `\`cairn init\` creates .cairn/ in ${location.root}; or pass --root <dir> of an initialized project; nothing was written`,
      details: { reason: 'not_initialized', root: location.root, start: location.start },
    },
  );
}

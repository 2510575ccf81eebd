import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CAIRN_DIR, CairnError, type ResolvedSettings } from '@cairn/core';
import type { Cairn } from './cairn-api';

/*
 * Finding the project of an event or command: the folder that holds its
 * `.cairn/` (`locateProject`), then, in a long-lived host (the hook
 * server, an in-process plugin), the project it keeps open for that
 * folder and its settings (the project cache), opened anew when its files
 * changed.
 */

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

/** Projects a host keeps open at once by default; the least recently used is closed past this. */
export const MAX_OPEN_PROJECTS = 8;

/** One kept project. */
export interface KeptProject {
  root: string;
  cairn: Cairn;
  /** The project's files as the last event left them (`fingerprint`). */
  files?: string;
}

/** The folders and databases a kept project holds open or reads through (relative to the root). */
const PROJECT_FILES = [
  '.cairn',
  '.cairn/memory',
  '.cairn/state',
  '.cairn/index',
  '.cairn/state/lineage.db',
  '.cairn/state/heads.db',
  '.cairn/state/history.db',
  '.cairn/index/search.sqlite',
];

/**
 * Which files the project's paths name now: a database moved aside,
 * restored from a backup or deleted, or a `.cairn/` removed and made again,
 * changes it. A kept connection would go on writing to the file it opened,
 * so a project whose files changed between two events is opened again.
 */
function fingerprint(root: string): string {
  return PROJECT_FILES.map((path) => {
    const info = statSync(join(root, path), { throwIfNoEntry: false });
    return info ? `${info.dev}:${info.ino}` : '-';
  }).join(' ');
}

/**
 * The open projects of a long-lived host (the hook server, an in-process
 * plugin), by key: an event is answered with the same engine, databases
 * and indexes as the last event of that project.
 */
export interface ProjectCache {
  entries: Map<string, KeptProject>;
  max: number;
  /** Closes (and awaits) what an eviction let go of; never throws. */
  closing: Set<Promise<void>>;
}

export function createProjectCache(max = MAX_OPEN_PROJECTS): ProjectCache {
  return { entries: new Map(), max, closing: new Set() };
}

/**
 * What makes two events' projects the same: the folder, the settings
 * resolved for this event (config files and `CAIRN_*` variables, read anew
 * by every event, so an edited config or a `cairn trust` opens the project
 * again) and the rest of the environment (keys named by settings, PATH for
 * git and bd, HOME).
 */
export function projectKey(
  root: string,
  resolved: ResolvedSettings,
  env: NodeJS.ProcessEnv,
  homeDir = '',
): string {
  return JSON.stringify([root, resolved, env, homeDir]);
}

function evict(cache: ProjectCache, key: string): void {
  const entry = cache.entries.get(key);
  cache.entries.delete(key);
  if (!entry) return;
  const closed = entry.cairn.close().catch(() => undefined);
  cache.closing.add(closed);
  void closed.finally(() => cache.closing.delete(closed));
}

/**
 * The project kept under `key`, unless its files changed since its last
 * event (then it is closed, and undefined is returned).
 */
export function cachedProject(cache: ProjectCache, key: string): Cairn | undefined {
  const known = cache.entries.get(key);
  if (!known) return undefined;
  if (known.files !== undefined && known.files !== fingerprint(known.root)) {
    evict(cache, key);
    return undefined;
  }
  // Most recently used last: Map keeps insertion order.
  cache.entries.delete(key);
  cache.entries.set(key, known);
  return known.cairn;
}

/** Keeps `cairn` under `key`, closing the least recently used past the cache's size. */
export function keepProject(cache: ProjectCache, key: string, root: string, cairn: Cairn): void {
  evict(cache, key);
  cache.entries.set(key, { root, cairn });
  for (const oldest of cache.entries.keys()) {
    if (cache.entries.size <= cache.max) break;
    evict(cache, oldest);
  }
}

/** After an event: notes the project's files, to compare before the next event. */
export function noteProjectFiles(cache: ProjectCache, cairn: Cairn): void {
  for (const entry of cache.entries.values()) {
    if (entry.cairn === cairn) entry.files = fingerprint(entry.root);
  }
}

/** The folders of the projects open now. */
export function cachedRoots(cache: ProjectCache): string[] {
  return [...new Set([...cache.entries.values()].map((entry) => entry.root))].sort();
}

/** Closes every kept project, and waits for those evicted earlier. */
export async function closeProjects(cache: ProjectCache): Promise<void> {
  for (const key of [...cache.entries.keys()]) evict(cache, key);
  await Promise.all([...cache.closing]);
}

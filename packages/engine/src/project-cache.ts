import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedSettings } from '@cairn/core';
import type { Cairn } from './cairn-api';

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

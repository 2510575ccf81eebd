import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Cairn, OpenCairnOptions } from '@cairn/engine';

/** Projects the hook server keeps open at once; the least recently used is closed past this. */
const MAX_OPEN_PROJECTS = 8;

interface Entry {
  root: string;
  cairn: Cairn;
  close: () => void;
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

export interface ProjectCache {
  /** openCairn for one event: the project as it was opened by an earlier event with the same settings and environment, or newly opened. */
  open(root: string, options: OpenCairnOptions): Cairn;
  /** The folders of the projects open now. */
  roots(): string[];
  /** Closes every project. */
  closeAll(): void;
}

/**
 * What makes two events' projects the same: the folder, the settings
 * resolved for this event (config files and `CAIRN_*` variables, read anew
 * by every event, so an edited config or a `cairn trust` opens the project
 * again) and the rest of the environment (keys named by settings, PATH for
 * git and bd, HOME).
 */
function keyOf(root: string, options: OpenCairnOptions): string | undefined {
  if (!options.resolvedSettings) return undefined;
  return JSON.stringify([root, options.resolvedSettings, options.env ?? {}, options.homeDir ?? '']);
}

/**
 * The hook server's open projects (hook-server.ts): an event is answered
 * with the same engine, databases and indexes as the last event of that
 * project, as an in-process harness (OpenCode, OpenClaw) keeps them. The
 * commands close what they open after each event; a kept project ignores
 * that and is closed when it is evicted or the server stops.
 */
export function createProjectCache(
  openProject: (root: string, options: OpenCairnOptions) => Cairn,
): ProjectCache {
  const entries = new Map<string, Entry>();
  const evict = (key: string) => {
    entries.get(key)?.close();
    entries.delete(key);
  };
  return {
    open(root, options) {
      const key = keyOf(root, options);
      if (key === undefined) return openProject(root, options);
      const known = entries.get(key);
      if (known && known.files !== fingerprint(root)) evict(key);
      else if (known) {
        // Most recently used last: Map keeps insertion order.
        entries.delete(key);
        entries.set(key, known);
        return known.cairn;
      }
      const cairn = openProject(root, options);
      const entry: Entry = { root, cairn, close: cairn.closeWorking.bind(cairn) };
      // The commands close what they open after each event: a kept project
      // notes its files instead, to compare before the next event.
      cairn.closeWorking = () => {
        entry.files = fingerprint(root);
      };
      entries.set(key, entry);
      for (const oldest of entries.keys()) {
        if (entries.size <= MAX_OPEN_PROJECTS) break;
        evict(oldest);
      }
      return cairn;
    },
    roots() {
      return [...new Set([...entries.values()].map((entry) => entry.root))].sort();
    },
    closeAll() {
      for (const key of [...entries.keys()]) evict(key);
    },
  };
}

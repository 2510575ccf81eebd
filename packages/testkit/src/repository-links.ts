import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, rm, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/**
 * A link (or FIFO) a cloned repository can ship under `.cairn/`: git
 * stores symbolic links, so the repository decides what `.cairn/memory`,
 * `MEMORY.md`, a daily file or `threads/` points at. Cairn refuses every
 * one (docs/SECURITY.md); the tests of each surface place these in an
 * initialised project and check that nothing of `victim` is read or written.
 */
export interface RepositoryLinkCase {
  name: string;
  /** Project-relative path of the link, as `cairn doctor` names it. */
  path: string;
  /** Puts the link into the initialised project `root`; `victim` is another initialised project. */
  place(root: string, victim: string): Promise<void>;
}

/**
 * Replaces whatever is at `relPath` in `root` with a symbolic link to
 * `target`, relative when `target` is absolute inside the file system
 * tree (as a repository would ship it: `../../victim/.cairn/memory`).
 */
export async function placeLink(root: string, relPath: string, target: string): Promise<void> {
  const at = join(root, relPath);
  await rm(at, { recursive: true, force: true });
  await mkdir(dirname(at), { recursive: true });
  const pointer =
    target.startsWith('/proc/') || target.startsWith('/dev/')
      ? target
      : relative(dirname(at), target);
  await symlink(pointer, at);
}

/** The first daily file (`YYYY-MM-DD.md`) of a project's memory. */
export function firstDailyFile(root: string): string {
  const name = readdirSync(join(root, '.cairn/memory')).find((n) =>
    /^\d{4}-\d\d-\d\d\.md$/.test(n),
  );
  if (!name) throw new Error(`no daily file in ${root}: add a unit first`);
  return name;
}

const toVictim =
  (relPath: string, victimPath: (victim: string) => string = (v) => join(v, relPath)) =>
  (root: string, victim: string) =>
    placeLink(root, relPath, victimPath(victim));

/**
 * Every kind of link the issue names: folder, file, dangling, to a device,
 * to /proc, to another project, plus a FIFO where MEMORY.md belongs. The
 * victim needs a daily file and `.cairn/state/lineage.db`.
 */
export const REPOSITORY_LINK_CASES: readonly RepositoryLinkCase[] = [
  {
    name: 'the memory folder, to another project',
    path: '.cairn/memory',
    place: toVictim('.cairn/memory'),
  },
  { name: '.cairn itself, to another project', path: '.cairn', place: toVictim('.cairn') },
  {
    name: 'MEMORY.md, to another project',
    path: '.cairn/memory/MEMORY.md',
    place: toVictim('.cairn/memory/MEMORY.md'),
  },
  {
    name: 'MEMORY.md, to /proc/self/environ',
    path: '.cairn/memory/MEMORY.md',
    place: toVictim('.cairn/memory/MEMORY.md', () => '/proc/self/environ'),
  },
  {
    name: 'MEMORY.md, to /dev/zero',
    path: '.cairn/memory/MEMORY.md',
    place: toVictim('.cairn/memory/MEMORY.md', () => '/dev/zero'),
  },
  {
    name: "a daily file, to another project's",
    path: '.cairn/memory/2020-01-01.md',
    place: (root, victim) =>
      placeLink(
        root,
        '.cairn/memory/2020-01-01.md',
        join(victim, '.cairn/memory', firstDailyFile(victim)),
      ),
  },
  {
    name: 'the threads folder, to another project',
    path: '.cairn/memory/threads',
    place: toVictim('.cairn/memory/threads', (v) => join(v, '.cairn/memory')),
  },
  {
    name: 'a dangling daily file, into another project',
    path: '.cairn/memory/2020-01-02.md',
    place: toVictim('.cairn/memory/2020-01-02.md', (v) => join(v, '.cairn/memory/2020-01-02.md')),
  },
  {
    name: 'a FIFO as MEMORY.md',
    path: '.cairn/memory/MEMORY.md',
    place: async (root) => {
      const at = join(root, '.cairn/memory/MEMORY.md');
      await rm(at, { force: true });
      execFileSync('mkfifo', [at]);
    },
  },
  {
    name: 'the state folder, to another project',
    path: '.cairn/state',
    place: toVictim('.cairn/state'),
  },
  {
    name: "lineage.db, to another project's",
    path: '.cairn/state/lineage.db',
    place: toVictim('.cairn/state/lineage.db'),
  },
  {
    name: "config.json, to another project's",
    path: '.cairn/config.json',
    place: toVictim('.cairn/config.json'),
  },
];

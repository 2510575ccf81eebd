import { readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { threadHeadFileName } from '@cairn/core';

/** Lowercase, `[a-z0-9._-]` only, no leading punctuation, bounded: safe in file names and keys. */
export function slugify(value: string, max = 48): string {
  const slug = value
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, max);
  return slug || 'x';
}

/** Past this size a file of git's own is not read (HEAD, a ref: a line; `packed-refs`: one per ref). */
const MAX_GIT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A small file of git's own (`.git`, HEAD, a ref, `packed-refs`), read
 * without a git process: regular files only and size-capped, so a FIFO or
 * a device where git keeps a file (a `.git` folder that came in an archive)
 * never stalls or floods a hook. Throws when it is not one.
 */
export function readGitFile(path: string): string {
  const info = statSync(path);
  if (!info.isFile() || info.size > MAX_GIT_FILE_BYTES) {
    throw new Error(`${path} is not a file git writes`);
  }
  return readFileSync(path, 'utf8');
}

/** `.git` itself, or the folder a `.git` file points to (worktrees, submodules). */
export function gitDir(cwd: string): string {
  const dotGit = join(cwd, '.git');
  if (!statSync(dotGit).isFile()) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(readGitFile(dotGit));
  return pointer ? resolve(cwd, pointer[1]!.trim()) : dotGit;
}

/** The checked-out branch, read from git's HEAD (no git process); `detached` or `none` otherwise. */
export function gitBranch(cwd: string): string {
  try {
    const head = readGitFile(join(gitDir(cwd), 'HEAD')).trim();
    const match = /^ref: refs\/heads\/(.+)$/.exec(head);
    return match ? match[1]! : 'detached';
  } catch {
    return 'none';
  }
}

/** A project's id before one is stored: its folder's name, as thread keys always began. */
export function folderProjectId(rootDir: string): string {
  return slugify(basename(resolve(rootDir)), 40);
}

/**
 * The default thread of a session: the project's id plus the git branch of
 * the folder the session runs in (of the project root when that folder is
 * not a checkout's top), e.g. `cairn.main`.
 */
export function defaultThreadKey(projectId: string, cwd: string, rootDir = cwd): string {
  const branch = gitBranch(cwd);
  const checkout =
    branch === 'none' && resolve(cwd) !== resolve(rootDir) ? gitBranch(rootDir) : branch;
  return `${projectId}.${slugify(checkout, 60)}`;
}

export type ThreadKind = 'topic' | 'person';

/** An explicit topic or person thread: `topic-<slug>` / `person-<slug>`. */
export function explicitThreadKey(kind: ThreadKind, name: string): string {
  return `${kind}-${slugify(name, 80)}`;
}

/**
 * Thread heads are scoped to an agent: the file `threads/<agent>.<thread>.md`
 * keeps two agents on the same thread key apart.
 */
export function threadFileKey(agentId: string, threadKey: string): string {
  return `${slugify(agentId, 40)}.${threadKey}`.slice(0, 119);
}

/**
 * The workspace file of a thread head, relative to `.cairn/memory/`:
 * `threads/<agent slug>.<thread>.md`, as the head writer names it.
 */
export function threadHeadFile(agentId: string, threadKey: string): string {
  return threadHeadFileName(threadFileKey(agentId, threadKey));
}

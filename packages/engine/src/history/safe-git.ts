import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative, sep } from 'node:path';
import { childProcess } from '../runtime';

/**
 * git, read as untrusted input. The repository's own config can name
 * programs git would run (core.fsmonitor, diff.external, textconv drivers,
 * core.pager, gpg.program through log.showSignature, hooks), so every call
 * here: finds git by PATH lookup outside the project, runs it with execFile
 * (no shell) and a timeout, switches each of those off on the command line,
 * drops the caller's GIT_* variables, and only ever compares commits (`log`,
 * `diff A B`): the work tree and the index are never read.
 */

/** One git call's limit: a session-end hook has about 1.5 s in all (Claude Code). */
export const GIT_TIMEOUT_MS = 700;
const GIT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Commits read back from HEAD when looking for a session's commits. */
const LOG_DEPTH = 100;
/** The tree of an empty repository (SHA-1), the "before" of a root commit. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** Settings that would make git run a program named by the repository. */
const HARDENING = [
  '--no-pager',
  '-c',
  'core.fsmonitor=',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.pager=cat',
  '-c',
  'log.showSignature=false',
  '-c',
  'diff.external=',
];

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/**
 * The absolute path of `git` on PATH, skipping relative entries and any
 * folder inside the project (a `git` shipped by the repository never runs).
 */
export async function findGit(
  env: Record<string, string | undefined>,
  projectRoot: string,
): Promise<string | undefined> {
  // Synchronous on purpose: hook processes never load node:fs/promises (hook-bundle.test.ts).
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  };
  const root = real(projectRoot) ?? projectRoot;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const realDir = real(dir);
    if (!realDir || inside(root, realDir)) continue;
    const bin = real(join(realDir, 'git'));
    if (!bin || inside(root, bin) || !isExecutableFile(bin)) continue;
    return bin;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The caller's environment without GIT_* (GIT_DIR, GIT_EXTERNAL_DIFF, GIT_PAGER...). */
function gitEnv(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && !key.startsWith('GIT_')) clean[key] = value;
  }
  return { ...clean, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
}

export interface GitReader {
  /** The git binary used. */
  readonly bin: string;
  /** Commits reachable from HEAD whose commit time lies in [from, to] (seconds), oldest first. */
  commitsBetween(from: Date, to: Date): Promise<GitCommit[]>;
  /** `git diff --numstat A B` summed: what the commits changed. */
  diffStat(from: string, to: string): Promise<DiffStat>;
}

export interface GitCommit {
  sha: string;
  subject: string;
  /** ISO instant of the commit. */
  at: string;
  /** The first parent, absent for a root commit. */
  parent?: string;
}

export interface DiffStat {
  from: string;
  to: string;
  files: { path: string; added: number; removed: number }[];
  insertions: number;
  deletions: number;
}

/**
 * A hardened runner over the repository holding `cwd` (same rules as the
 * reader above), for callers that read objects at a commit
 * (`show <sha>:<path>`, `ls-tree`, `grep <pattern> <sha>`), never the work tree.
 */
export function createGitRunner(
  bin: string,
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): (args: string[]) => Promise<string> {
  const clean = gitEnv(env);
  return (args) => run(bin, cwd, clean, args);
}

function run(bin: string, cwd: string, env: Record<string, string>, args: string[]) {
  return new Promise<string>((resolve, reject) => {
    childProcess().execFile(
      bin,
      [...HARDENING, ...args],
      { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_OUTPUT_BYTES, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve(String(stdout));
        const detail = String(stderr).trim().split('\n')[0] ?? '';
        reject(new Error(`git ${args[0]} failed: ${detail || error.message}`));
      },
    );
  });
}

function parseLog(stdout: string): GitCommit[] {
  const commits: GitCommit[] = [];
  for (const line of stdout.split('\n')) {
    const [sha, parents, time, subject] = line.split('\x1f');
    if (!sha || !SHA.test(sha) || !time) continue;
    const parent = parents?.split(' ')[0];
    commits.push({
      sha,
      subject: (subject ?? '').slice(0, 200),
      at: new Date(Number(time) * 1000).toISOString(),
      ...(parent && SHA.test(parent) ? { parent } : {}),
    });
  }
  return commits;
}

function parseNumstat(stdout: string): Pick<DiffStat, 'files' | 'insertions' | 'deletions'> {
  const files: DiffStat['files'] = [];
  for (const line of stdout.split('\n')) {
    const [added, removed, ...path] = line.split('\t');
    if (!path.length || added === undefined || removed === undefined) continue;
    // Binary files show `-` for both counts.
    files.push({ path: path.join('\t'), added: Number(added) || 0, removed: Number(removed) || 0 });
  }
  const sum = (key: 'added' | 'removed') => files.reduce((total, file) => total + file[key], 0);
  return { files, insertions: sum('added'), deletions: sum('removed') };
}

/** A reader over the repository holding `cwd`, with `bin` (see findGit). */
export function createGitReader(
  bin: string,
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): GitReader {
  const clean = gitEnv(env);
  return {
    bin,
    async commitsBetween(from, to) {
      const format = '--format=%H%x1f%P%x1f%ct%x1f%s';
      const stdout = await run(bin, cwd, clean, [
        'log',
        '--no-show-signature',
        '--no-color',
        format,
        `-n${LOG_DEPTH}`,
        'HEAD',
        '--',
      ]);
      const low = Math.floor(from.getTime() / 1000);
      const high = Math.ceil(to.getTime() / 1000);
      return parseLog(stdout)
        .filter((commit) => {
          const seconds = Date.parse(commit.at) / 1000;
          return seconds >= low && seconds <= high;
        })
        .reverse();
    },
    async diffStat(fromRaw, to) {
      const from = fromRaw === 'empty-tree' ? EMPTY_TREE : fromRaw;
      if (!SHA.test(from) || !SHA.test(to)) throw new Error('diffStat compares two commit ids');
      const stdout = await run(bin, cwd, clean, [
        'diff',
        '--no-ext-diff',
        '--no-textconv',
        '--no-color',
        '--numstat',
        from,
        to,
        '--',
      ]);
      return { from: fromRaw, to, ...parseNumstat(stdout) };
    },
  };
}

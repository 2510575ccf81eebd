import { isCommitSha, readHeadCommit } from '../anchors';
import { createGitRunner, findGit } from '../history';

/**
 * Reads of the repository's objects at a commit, through the hardened git
 * runner (history/safe-git.ts): no repository config runs a program, and
 * the work tree is never read, so what is checked is what is committed.
 */
export interface GitObjects {
  head(): Promise<string | undefined>;
  /** Every file path in the commit's tree. */
  files(commit: string): Promise<Set<string>>;
  /** A file's text at the commit, or undefined when absent. */
  show(commit: string, path: string): Promise<string | undefined>;
  /** Files of the commit holding `word` as a whole word. */
  grep(commit: string, word: string): Promise<string[]>;
}

export async function openGitObjects(
  rootDir: string,
  env: Record<string, string | undefined> = process.env,
): Promise<GitObjects | undefined> {
  const bin = await findGit(env, rootDir);
  if (!bin) return undefined;
  const git = createGitRunner(bin, rootDir, env);
  const trees = new Map<string, Set<string>>();
  const objects: GitObjects = {
    async head() {
      const fast = readHeadCommit(rootDir);
      if (fast) return fast;
      const out = await git(['rev-parse', '--verify', '-q', 'HEAD']).catch(() => '');
      const sha = out.trim();
      return isCommitSha(sha) ? sha : undefined;
    },
    async files(commit) {
      const cached = trees.get(commit);
      if (cached) return cached;
      const out = await git(['ls-tree', '-r', '--name-only', '-z', commit]);
      const files = new Set(out.split('\0').filter(Boolean));
      trees.set(commit, files);
      return files;
    },
    async show(commit, path) {
      if (!(await objects.files(commit)).has(path)) return undefined;
      return git(['show', '--no-textconv', `${commit}:${path}`]).catch(() => undefined);
    },
    async grep(commit, word) {
      const out = await git([
        'grep',
        '-l',
        '-w',
        '-F',
        '--no-textconv',
        '-e',
        word,
        commit,
        '--',
      ]).catch(() => '');
      return out
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(commit.length + 1));
    },
  };
  return objects;
}

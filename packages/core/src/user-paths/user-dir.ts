import { mkdirSync } from 'node:fs';
import { checkUserPath, shellQuote, type UserPathProblem } from './owner-rule';

/**
 * Checks the per-user folder `dir` by the ownership rule (owner-rule.ts),
 * creating it (mode 0700, with any missing folders above it) when it is
 * missing below folders that pass. Undefined when it may be used; else the
 * problem, and nothing was created in a folder that failed. `private`: the
 * folder must also be closed to group and others for reading.
 */
export function ensureUserDir(
  dir: string,
  options: { private?: boolean } = {},
): UserPathProblem | undefined {
  const rule = { kind: 'directory' as const, private: options.private };
  const problem = checkUserPath(dir, rule);
  if (problem && problem.code !== 'missing') return problem;
  // Without uids (Windows) every path passes: the folder is still created.
  if (!problem && typeof process.getuid === 'function') return undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return {
      code: 'unchecked',
      path: dir,
      problem: `cannot be created (${code})`,
      fix: `mkdir -m 700 -p ${shellQuote(dir)}`,
    };
  }
  // Checked again: someone may have put their own folder there first.
  return checkUserPath(dir, rule);
}

/**
 * True when `dir` is a folder that passes the ownership rule and that no
 * one else can read or write (mode 0700 or tighter). A missing folder is
 * not private.
 */
export function isPrivateDir(dir: string): boolean {
  return checkUserPath(dir, { kind: 'directory', private: true }) === undefined;
}

/**
 * `dir`, created (mode 0700) when missing, when it is private; undefined
 * when it is not safe to use (it or a folder above it is someone else's,
 * writable by others, a link, readable by others). A folder that fails is
 * left as it is: it may be someone else's.
 */
export function privateDir(dir: string): string | undefined {
  return ensureUserDir(dir, { private: true }) ? undefined : dir;
}

/**
 * The warning for a per-user path that is not used: what it is, what that
 * costs, which path is at fault and the command that fixes it.
 */
export function userPathWarning(
  subject: string,
  path: string,
  problem: UserPathProblem,
  consequence: string,
): string {
  const where = problem.path === path ? 'it' : problem.path;
  return `${subject} ${path} is not used (${consequence}): ${where} ${problem.problem}; run \`${problem.fix}\` (see docs/SECURITY.md#per-user-files-and-folders)`;
}

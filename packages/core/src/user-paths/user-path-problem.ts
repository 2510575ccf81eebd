import { userInfo } from 'node:os';

/** A per-user path that fails the ownership rule (owner-rule.ts), and the command that fixes it. */
export type UserPathProblemCode =
  | 'missing'
  | 'owner'
  | 'writable'
  | 'readable'
  | 'link'
  | 'type'
  | 'unchecked';

export interface UserPathProblem {
  /** `missing`: the path (or a folder above it) does not exist; everything above that is sound. */
  code: UserPathProblemCode;
  /** The file or folder at fault: the path itself or a folder above it. */
  path: string;
  /** What is wrong with it, a phrase that follows the path ("can be written by group or others"). */
  problem: string;
  /** The command that fixes it: `chmod go-w /x`, `chown <user> /x`. */
  fix: string;
}

export function accessProblem(path: string, error: unknown): UserPathProblem {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  if (code === 'ENOENT') {
    return {
      code: 'missing',
      path,
      problem: 'does not exist',
      fix: `mkdir -m 700 -p ${shellQuote(path)}`,
    };
  }
  return {
    code: 'unchecked',
    path,
    problem: `cannot be checked (${code})`,
    fix: `ls -ld ${shellQuote(path)}`,
  };
}

export function problemOf(
  code: 'owner' | 'writable' | 'readable' | 'link' | 'type',
  path: string,
  uid?: number,
  phrase?: string,
): UserPathProblem {
  const quoted = shellQuote(path);
  switch (code) {
    case 'owner':
      return {
        code,
        path,
        problem: `belongs to another user (uid ${uid}), not to you or root`,
        fix: `chown ${currentUserName()} ${quoted}`,
      };
    case 'writable':
      return {
        code,
        path,
        problem: 'can be written by group or others',
        fix: `chmod go-w ${quoted}`,
      };
    case 'readable':
      return {
        code,
        path,
        problem: 'can be read by group or others',
        fix: `chmod go-rwx ${quoted}`,
      };
    case 'link':
      return { code, path, problem: 'is a symbolic link', fix: `rm ${quoted}` };
    default:
      return {
        code,
        path,
        problem: phrase ?? 'is of the wrong type',
        fix: `mv ${quoted} ${shellQuote(`${path}.old`)}`,
      };
  }
}

function currentUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return String(process.getuid?.() ?? '');
  }
}

/** `path` as one shell word. */
export function shellQuote(path: string): string {
  return /^[\w/.,:@%+=-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

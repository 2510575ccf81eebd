import { allCaptures, firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';

const REJECTED = /^\s*! \[(?:remote )?rejected\]\s+\S+ -> \S+ \(([^)]+)\)/;
const CONFLICT = /^CONFLICT \(([^)]+)\):/;
const FATAL = /^fatal: (.+)$/;
const GIT_ERROR = /^error: (.+)$/;

/**
 * git: a rejected push (its reason, not the branch), merge conflicts (their
 * kinds, not the files), else `fatal:`; `error:` lines count only when the
 * command was git (rustc and others print `error:` too).
 */
export const gitRule: SignatureRule = {
  family: 'git',
  key({ lines, commandFamily }) {
    const rejected = firstCapture(lines, REJECTED);
    if (rejected) return keyOf(`push rejected (${rejected})`);
    const conflicts = allCaptures(lines, CONFLICT, 5);
    if (conflicts.length > 0) return keyOf('merge conflict', conflicts);
    const isGit = commandFamily?.startsWith('git') || hasLine(lines, /^hint: /);
    const fatal = firstCapture(lines, FATAL);
    if (fatal && (isGit || /\bgit\b|repository|branch|commit|remote/i.test(fatal)))
      return keyOf(`fatal: ${fatal}`);
    return isGit ? keyOf(firstCapture(lines, GIT_ERROR)) : undefined;
  },
};

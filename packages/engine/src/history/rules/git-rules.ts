import { allCaptures, firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';

const REJECTED = /^\s*! \[(?:remote )?rejected\]\s+\S+ -> \S+ \(([^)]+)\)/;
const CONFLICT = /^CONFLICT \(([^)]+)\):/;
const FATAL = /^fatal: (.+)$/;
const GIT_ERROR = /^error: (.+)$/;
/** What git says without `fatal:` or `error:` when there is nothing it can do. */
const GIT_STATES =
  /^(There is no tracking information for the current branch|nothing to commit, working tree clean|nothing added to commit but untracked files present)\b/;

/**
 * Messages whose quoted part is what the user typed (a branch, a path, a
 * revision): the name goes, the kind of mistake stays, so one fix serves
 * every branch. `pathspec` covers both `git add x` and `git checkout x`.
 */
const TYPED_NAMES: readonly [RegExp, string][] = [
  [
    /^(error: )?pathspec '[^']*' did not match any (file\(s\) known to git|files)/,
    '$1pathspec <name> did not match any $2',
  ],
  [
    /^The current branch \S+ has no upstream branch\./,
    'The current branch <branch> has no upstream branch.',
  ],
  [
    /^ambiguous argument '[^']*': (unknown revision or path not in the working tree)\./,
    'ambiguous argument <rev>: $1.',
  ],
  [/^A branch named '[^']*' already exists\./, 'A branch named <branch> already exists.'],
];

function withoutTypedNames(message: string): string {
  for (const [pattern, replacement] of TYPED_NAMES) {
    if (pattern.test(message)) return message.replace(pattern, replacement).replace(/\s+$/, '');
  }
  return message;
}

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
      return keyOf(`fatal: ${withoutTypedNames(fatal)}`);
    const error = firstCapture(lines, GIT_ERROR);
    if (isGit && error) return keyOf(withoutTypedNames(error));
    return isGit ? keyOf(firstCapture(lines, GIT_STATES)) : undefined;
  },
};

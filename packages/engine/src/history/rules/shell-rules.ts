import { keyOf, type SignatureRule } from '../signature-rule';

/**
 * The shells' ways of saying a program is missing or cannot run:
 * bash `bash: foo: command not found`, zsh `zsh: command not found: foo`,
 * dash `sh: 1: foo: not found`, fish `fish: Unknown command: foo`,
 * cmd `'foo' is not recognized as an internal or external command`.
 */
const NOT_FOUND: readonly RegExp[] = [
  /^(?:\S*\/)?(?:ba|z|da|k|)sh: (?:line \d+: )?([^\s:]+): command not found$/,
  /^(?:\S*\/)?(?:ba|z|da|k|)sh: (?:\d+: )?([^\s:]+): not found$/,
  // A script run by bash or dash names itself instead of the shell.
  /^\S+: line \d+: ([^\s:]+): command not found$/,
  /^\S+: \d+: ([^\s:]+): not found$/,
  /^zsh: command not found: (\S+)$/,
  /^fish: Unknown command:? (\S+)$/,
  /^'([^']+)' is not recognized as an internal or external command/,
];
const CANNOT_RUN =
  /^(?:\S*\/)?(?:ba|z|da|k|)sh: (?:line \d+: )?(\S+): (Permission denied|No such file or directory|cannot execute binary file.*)$/;
/** make runs a recipe's program itself: `make: protoc: No such file or directory`. */
const MAKE_CANNOT_RUN = /^make(?:\[\d+\])?: ([^\s:*]+): No such file or directory$/;
/** `bash: line 2: cd: packages/api: No such file or directory`: the folder is what is missing. */
const CD_MISSING = /^\S+: (?:line \d+: )?cd: ([^:]+): No such file or directory$/;
/** `set -u`: `deploy.sh: line 3: DEPLOY_ENV: unbound variable` (the script is where, the name is what). */
const UNBOUND = /^\S+: line \d+: ([A-Za-z_][A-Za-z0-9_]*): unbound variable$/;

/** Only the program's name: paths go, so `./deploy.sh` anywhere is one signature. */
function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

export const shellRule: SignatureRule = {
  family: 'shell',
  key({ lines }) {
    for (const line of lines) {
      for (const pattern of NOT_FOUND) {
        const missing = pattern.exec(line.trim())?.[1];
        if (missing) return keyOf(`command not found: ${programName(missing)}`);
      }
      const blocked = CANNOT_RUN.exec(line.trim());
      if (blocked?.[1] && blocked[2]) return keyOf(`${blocked[2]}: ${programName(blocked[1])}`);
      const recipe = MAKE_CANNOT_RUN.exec(line.trim())?.[1];
      if (recipe) return keyOf(`command not found: ${programName(recipe)}`);
      const unbound = UNBOUND.exec(line.trim())?.[1];
      if (unbound) return keyOf(`unbound variable: ${unbound}`);
      const folder = CD_MISSING.exec(line.trim())?.[1];
      if (folder) return keyOf(`cd: no such folder: ${folder.trim()}`);
    }
    return undefined;
  },
};

/** make's own errors: `make: *** No rule to make target 'build'.  Stop.` (a recipe's failure is its program's). */
const MAKE_ERROR = /^make(?:\[\d+\])?: \*\*\* (.+?)\.?\s+Stop\.$/;

export const makeRule: SignatureRule = {
  family: 'make',
  key: ({ lines }) => {
    for (const line of lines) {
      const message = MAKE_ERROR.exec(line.trim())?.[1];
      if (message) return keyOf(message);
    }
    return undefined;
  },
};

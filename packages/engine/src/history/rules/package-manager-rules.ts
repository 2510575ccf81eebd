import { firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';

/** Codes that only say "the script you ran failed": the script's own error is the signature. */
export const WRAPPER_CODES = new Set([
  'ELIFECYCLE',
  'ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL',
  'ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL',
  'ERR_PNPM_RECURSIVE_FAIL',
]);

const NPM_LINE = /^npm (?:ERR!|error) (.*)$/;
const NPM_CODE = /^npm (?:ERR!|error) code (\S+)/;
const NPM_NOISE =
  /^(?:code|errno|syscall|path|command|cwd|signal|dest|A complete log|Log files|\s*$|\/|[A-Za-z]:\\)/;

/** The line that names what is wrong: the missing package or script, the conflicting peer. */
const NPM_TELLING =
  /is not in this registry|^Missing script|^peer \S+ from|^Conflicting peer dependency/;

/** npm's own words without `npm error`: an unknown command, and `npm init`'s placeholder test script. */
const NPM_UNKNOWN_COMMAND = /^(Unknown command: "[^"]+")$/;
const NPM_DEFAULT_TEST = /^> echo "Error: no test specified" && exit 1$/;

/** npm: its code (ERESOLVE, E404, EACCES) and its telling (else first) message line. */
export const npmRule: SignatureRule = {
  family: 'npm',
  key({ lines, commandFamily }) {
    if (commandFamily?.startsWith('npm')) {
      const unknown = firstCapture(lines, NPM_UNKNOWN_COMMAND);
      if (unknown) return keyOf(unknown);
      if (hasLine(lines, NPM_DEFAULT_TEST)) return keyOf('placeholder test script of npm init');
    }
    const code = firstCapture(lines, NPM_CODE);
    if (code && WRAPPER_CODES.has(code)) return undefined;
    const messages = lines
      .map((line) => NPM_LINE.exec(line)?.[1])
      .filter((text): text is string => text !== undefined && !NPM_NOISE.test(text));
    const telling = messages.find((text) => NPM_TELLING.test(text));
    return code || messages.length > 0 ? keyOf(code, telling ?? messages[0]) : undefined;
  },
};

const PNPM_ERROR = /(?:^|\s)(ERR_PNPM_[A-Z0-9_]+)\s+(.*)$/;
/** pnpm's errors without a code: ` ERROR  Expected ... while parsing '<the file's text>' in <path>`. */
const PNPM_PLAIN = /^\s?ERROR\s+(\S.*)$/;
const PARSED_TEXT = " while parsing '";

/** pnpm: `ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" ...`. */
export const pnpmRule: SignatureRule = {
  family: 'pnpm',
  key({ lines, commandFamily }) {
    for (const line of lines) {
      const match = PNPM_ERROR.exec(line);
      if (match && !WRAPPER_CODES.has(match[1] ?? '')) return keyOf(match[1], match[2]);
    }
    if (!commandFamily?.startsWith('pnpm')) return undefined;
    const plain = firstCapture(lines, PNPM_PLAIN);
    const cut = plain?.indexOf(PARSED_TEXT) ?? -1;
    return keyOf(cut < 0 ? plain : plain?.slice(0, cut));
  },
};

const YARN_BERRY = /\b(YN\d{4}): (?:\u2502\s)?(.+)$/;
const YARN_CLASSIC = /^error ([A-Z].+)$/;

/** yarn: berry's `YN0001: ...` codes (YN0000 is only progress), classic's `error An unexpected error`. */
export const yarnRule: SignatureRule = {
  family: 'yarn',
  key({ lines, commandFamily }) {
    for (const line of lines) {
      const match = YARN_BERRY.exec(line);
      if (match && match[1] !== 'YN0000') return keyOf(match[1], match[2]);
    }
    const isYarn = commandFamily?.startsWith('yarn') || hasLine(lines, /yarnpkg\.com|^yarn /);
    return isYarn ? keyOf(firstCapture(lines, YARN_CLASSIC)) : undefined;
  },
};

const WRAPPER_LINE =
  /\b(ELIFECYCLE|ERR_PNPM_RECURSIVE_(?:RUN|EXEC)_FIRST_FAIL|ERR_PNPM_RECURSIVE_FAIL)\b(.*)$/;

/** Last resort for a failed script run: the wrapper code and its message (`Command "lint" not found`). */
export const scriptWrapperRule: SignatureRule = {
  family: 'package-script',
  key: ({ lines }) => {
    for (const line of lines) {
      const match = WRAPPER_LINE.exec(line);
      if (match?.[1]) return keyOf(match[1], match[2]?.trim());
    }
    return undefined;
  },
};

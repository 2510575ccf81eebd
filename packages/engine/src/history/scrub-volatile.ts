/**
 * Replaces what changes between runs and machines in one line of error
 * text with placeholders, so two outputs of the same failure read the same.
 *
 * Every pattern is linear: a repeated group starts with a separator its
 * inner quantifier cannot match (`(?::\d+){0,2}`), so each character is
 * matched one way, and a run of characters is only tried from its first
 * character (a lookbehind refuses starts inside a run), so a long line is
 * scanned once per pattern.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes start with ESC.
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const URL = /(?<![\w+.-])[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>()]*/gi;
const UUID =
  /(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])/gi;
const DATE_TIME =
  /(?<!\d)\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)?(?!\d)/g;
const CLOCK = /(?<![\d:])\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?![\d:])/g;
const WINDOWS_PATH = /(?<![\w])[A-Za-z]:\\[^\s'"`<>|*?()]*/g;
/** `/abs/path`, `~/x`, `./x`, `../x`, `file:line:col` included. */
const ROOTED_PATH = /(?<![\w.~@+/\\-])(?:~|\.{1,2})?\/[\w.@+~-][\w.@+~/-]*(?::\d+){0,2}/g;
/** `src/a.ts`, `pkg/x/y.go:12:5`: a slash and a file extension. */
const RELATIVE_PATH =
  /(?<![\w.@+~/-])[\w@+-][\w.@+~/-]*\/[\w.@+~-]*\.[A-Za-z][A-Za-z0-9]{0,5}(?![\w.@/-])(?::\d+){0,2}/g;
/** A bare file name with a line: `main.go:12:5`, `Foo.java:42` (where it is, not what failed). */
const FILE_AT_LINE =
  /(?<![\w.@+~/-])[\w@+-][\w.@+-]*\.[A-Za-z][A-Za-z0-9]{0,5}(?::\d+){1,2}(?![\d\w])/g;
const HEX_LITERAL = /(?<![\w])0x[0-9a-fA-F]+(?![\w])/g;
/** Hashes and short SHAs: 7+ hex digits with at least one digit (not a word like "defaced"). */
const HEX_RUN = /(?<![\w-])[0-9a-fA-F]{7,}(?![\w-])/g;
/** Random names and ids: 10+ characters mixing letters and at least 3 digits. */
const MIXED_ID = /(?<![\w-])[A-Za-z0-9_-]{10,}(?![\w-])/g;
const DURATION =
  /(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|\u00b5s|us|ns|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)(?![\w])/g;
/** Numbers not glued to letters: `TS2345`, `E0308` and `x86` keep theirs. */
const NUMBER = /(?<![A-Za-z_\d])\d+/g;
const SPACES = /\s+/g;

function hasDigit(text: string): boolean {
  return /\d/.test(text);
}

function isRandomName(token: string): boolean {
  let digits = 0;
  let letters = 0;
  for (const char of token) {
    if (char >= '0' && char <= '9') digits += 1;
    else if (/[A-Za-z]/.test(char)) letters += 1;
  }
  return digits >= 3 && letters >= 1;
}

/** Strips terminal colour codes (done before any rule reads a line). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export interface ScrubOptions {
  /**
   * Keep plain numbers (`<n>` otherwise): a test's name carries its
   * parameters (`adds 2 + 2`, `test_adds[2-2-5]`), which say which case
   * failed rather than where or when.
   */
  keepNumbers?: boolean;
}

/** One line with its volatile parts replaced: `<url>`, `<uuid>`, `<time>`, `<path>`, `<hex>`, `<id>`, `<dur>`, `<n>`. */
export function scrubVolatile(line: string, options: ScrubOptions = {}): string {
  const scrubbed = stripAnsi(line)
    .replace(URL, '<url>')
    .replace(UUID, '<uuid>')
    .replace(DATE_TIME, '<time>')
    .replace(CLOCK, '<time>')
    .replace(WINDOWS_PATH, '<path>')
    .replace(ROOTED_PATH, '<path>')
    .replace(RELATIVE_PATH, '<path>')
    .replace(FILE_AT_LINE, '<path>')
    .replace(HEX_LITERAL, '<hex>')
    .replace(HEX_RUN, (token) => (hasDigit(token) ? '<hex>' : token))
    .replace(MIXED_ID, (token) => (isRandomName(token) ? '<id>' : token))
    .replace(DURATION, '<dur>');
  return (options.keepNumbers ? scrubbed : scrubbed.replace(NUMBER, '<n>'))
    .replace(SPACES, ' ')
    .trim();
}

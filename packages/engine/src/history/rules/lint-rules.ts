import { allCaptures, hasLine, keyOf, type SignatureRule } from '../signature-rule';

/*
 * Linters, keyed like tsc's errors (typescript-rules.ts): the set of what
 * was broken, not where. A warning fails no run, and is left out.
 */

/**
 * The errors `error` finds, each as `write` puts it (at most three,
 * sorted, scrubbed), in a run whose summary `tally` finds; undefined
 * without the summary, or without an error.
 */
function talliedErrors(
  lines: readonly string[],
  tally: RegExp,
  error: RegExp,
  write: (match: RegExpExecArray) => string,
): string[] | undefined {
  if (!hasLine(lines, tally)) return undefined;
  const errors = lines
    .map((line) => error.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(write);
  return keyOf(allCaptures(errors, /^(.+)$/));
}

/** ESLint's default (stylish) formatter: `  1:7  error  'x' is assigned … never used  no-unused-vars`. */
const ESLINT_ERROR = /^\s+\d+:\d+\s+error\s+(.+?)\s{2,}(@?[\w/-]+)$/;
const ESLINT_TALLY = /^\s*\u2716 \d+ problems? \(\d+ errors?, \d+ warnings?\)/;

/** ESLint: each error's rule and message (at most three, sorted). */
export const eslintRule: SignatureRule = {
  family: 'eslint',
  key: ({ lines }) =>
    talliedErrors(lines, ESLINT_TALLY, ESLINT_ERROR, (match) => `${match[2]} ${match[1]}`),
};

/**
 * Biome (`biome check`, `biome lint`, `biome ci`): a diagnostic's header
 * names its file and category (`src/a.js:2:18 lint/suspicious/noDebugger`,
 * `src/a.js format`), an error's message line starts with `×`.
 */
const BIOME_HEADER =
  /^\S+?(?::\d+:\d+)? ((?:lint|assist|parse)\/[\w/]+|format|organizeImports)\b.*\u2501{3,}$/;
const BIOME_ERROR = /^\s+\u00d7 /;
const BIOME_TALLY = /^Found \d+ errors?\.$|Some errors were emitted while running checks/;
/** Lines between a diagnostic's header and its message. */
const BIOME_MESSAGE_LINES = 4;

/** Biome: the categories of its error diagnostics (at most three, sorted). */
export const biomeRule: SignatureRule = {
  family: 'biome',
  key: ({ lines }) => {
    if (!hasLine(lines, BIOME_TALLY)) return undefined;
    const categories: string[] = [];
    lines.forEach((line, index) => {
      const category = BIOME_HEADER.exec(line)?.[1];
      if (!category) return;
      const message = lines.slice(index + 1, index + 1 + BIOME_MESSAGE_LINES);
      if (message.some((next) => BIOME_ERROR.test(next))) categories.push(category);
    });
    return keyOf(allCaptures(categories, /^(.+)$/));
  },
};

/**
 * Python's linters in their one-line format: flake8, pycodestyle and
 * ruff's concise output (`app/a.py:1:8: F401 [*] `os` imported but unused`).
 */
const PY_LINT = /^\S+?\.pyi?:\d+:\d+: ([A-Z]{1,4}\d{1,4})(?: \[\*\])? (.+)$/;

/** flake8 and the like: each error's code and message (at most three, sorted). */
export const pythonLintRule: SignatureRule = {
  family: 'python-lint',
  key: ({ lines }) => keyOf(allCaptures(lines, PY_LINT)),
};

/** mypy: `app/c.py:2: error: Incompatible return value type …  [return-value]`, then its tally. */
const MYPY_ERROR = /^\S+?\.pyi?:\d+(?::\d+)?: error: (.+?)(?:\s+\[([\w-]+)\])?$/;
const MYPY_TALLY = /^Found \d+ errors? in \d+ files? \(checked \d+ source files?\)$/;

/** mypy: each error's code and message (at most three, sorted). */
export const mypyRule: SignatureRule = {
  family: 'mypy',
  key: ({ lines }) =>
    talliedErrors(lines, MYPY_TALLY, MYPY_ERROR, (match) => `${match[2] ?? 'error'} ${match[1]}`),
};

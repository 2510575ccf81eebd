import { scrubVolatile } from '../scrub-volatile';
import { finalPart } from '../signature-rule';

/**
 * A failed test as a runner names it: the file it lives in, its suites and
 * name, and the class of what failed (the assertion or the error thrown).
 * Two outputs share a test key exactly when the same tests failed the same
 * way: where the file sits, its line numbers, the values compared and the
 * timings do not count.
 */
export interface FailedTest {
  /** The test file as printed (a path, `file:///…`, with or without `:line:col`). */
  file?: string | undefined;
  /** Suites, then the test's own name. */
  path: readonly string[];
  /** `AssertionError`, `TypeError`, `expect.toBe`, `t.is`… */
  errorClass?: string | undefined;
}

/** How many failed tests a key names at most (sorted, so the same set always gives the same key). */
export const MAX_KEYED_TESTS = 5;

const TRAILING_LOCATION = /(?::\d+){1,2}\)?$/;
/** A duration a runner appends to a test's name: `adds (10.5ms)`, `adds 3ms`, `# time=1.2ms`. */
const TRAILING_DURATION = / (?:\([\d.]+ ?m?s\)|[\d.]+ ?m?s|# time=[\d.]+m?s)$/;

/** The file's base name: where the test file sits is not what failed. */
export function testFileName(file: string | undefined): string | undefined {
  if (!file) return undefined;
  const bare = file
    .trim()
    .replace(/^file:\/\//, '')
    .replace(TRAILING_LOCATION, '');
  const base = bare.split(/[\\/]/).at(-1)?.trim();
  return base ? base : undefined;
}

/** A test or suite name as printed, without the duration a runner may append. */
export function cleanTestName(name: string): string {
  const text = name.replace(/\s+/g, ' ').trim();
  // Only the tail is looked at: a duration is short, and a long name is not scanned twice.
  const tail = text.slice(-32);
  const duration = TRAILING_DURATION.exec(tail);
  return duration ? text.slice(0, text.length - tail.length + duration.index).trim() : text;
}

/**
 * `file > suite > name (Class)`, scrubbed like every key part, except that
 * the numbers of the suites and name stay: they are the parameters of a
 * parametrized test (`adds 2 + 2`), and another parameter failing is
 * another failure. Durations, paths, ids and times in a name still go.
 */
export function testId(test: FailedTest): string {
  const names = test.path
    .map(cleanTestName)
    .filter(Boolean)
    .map((name) => scrubVolatile(name, { keepNumbers: true }));
  const file = testFileName(test.file);
  const id = [file === undefined ? undefined : scrubVolatile(file), ...names]
    .filter(Boolean)
    .join(' > ');
  return test.errorClass ? `${id} (${scrubVolatile(test.errorClass)})` : id;
}

/**
 * The key parts of a set of failed tests: each test's id once, sorted, at
 * most MAX_KEYED_TESTS; undefined when no test was named (the rule then
 * does not apply, or falls back to its older key).
 */
export function failedTestsKey(tests: readonly FailedTest[]): string[] | undefined {
  const ids = new Set(tests.filter((test) => test.path.length > 0).map(testId));
  ids.delete('');
  // The ids are scrubbed already, keeping the numbers of names: final key parts.
  return ids.size > 0 ? [...ids].sort().slice(0, MAX_KEYED_TESTS).map(finalPart) : undefined;
}

/**
 * Drops the failures of a suite whose own tests are listed too: a runner
 * reports a suite as failed because a test in it failed, which is the same
 * failure said twice.
 */
export function leafTests<T extends { path: readonly string[] }>(tests: readonly T[]): T[] {
  const key = (path: readonly string[]) => path.map(cleanTestName).join('\u0000');
  return tests.filter(
    (test) =>
      !tests.some(
        (other) =>
          other.path.length > test.path.length &&
          key(other.path.slice(0, test.path.length)) === key(test.path),
      ),
  );
}

/** `AssertionError [ERR_ASSERTION]: …` → `AssertionError`; jest's `expect(received).toBe(expected)` → `expect.toBe`. */
const JS_ERROR_CLASS =
  /^\s*(?:Uncaught )?([A-Z][\w$]*(?:Error|Exception|Failure))\b(?: \[[\w$]+\])?(?::|\s*\{|$)/;
const EXPECT_MATCHER = /\bexpect\([^)]*\)(?:\.(?:not|resolves|rejects))*\.(\w+)\(/;

/**
 * A test stopped for running too long: vitest `Test timed out in 60ms`,
 * jest `Exceeded timeout of 60 ms`, mocha `Timeout of 60ms exceeded`,
 * node's test runner `test timed out after 60ms`, ava `Timeout exceeded`.
 * Its class is `timeout` whatever error the runner wraps it in.
 */
const TIMED_OUT =
  /\b(?:[Tt]est timed out (?:in|after) \d|Exceeded timeout of \d|Timeout of \d+ ?ms exceeded|[Tt]imeout exceeded)/;

export function jsErrorClass(line: string): string | undefined {
  if (TIMED_OUT.test(line)) return 'timeout';
  const matcher = EXPECT_MATCHER.exec(line);
  if (matcher) return `expect.${matcher[1]}`;
  return JS_ERROR_CLASS.exec(line)?.[1];
}

/** The first error class on the lines from `start` until a line `stop` accepts (or the end). */
export function firstErrorClass(
  lines: readonly string[],
  start: number,
  stop: (line: string) => boolean,
  classOf: (line: string) => string | undefined = jsErrorClass,
): string | undefined {
  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (index > start && stop(line)) return undefined;
    const found = classOf(line);
    if (found) return found;
  }
  return undefined;
}

/** `at f (/a/b.js:1:2)` and `at /a/b.js:1:2`: the frame's file. */
const FRAME_IN_PARENS = /\(([^()\s]+):\d+:\d+\)$/;
const BARE_FRAME = /^at ([^()\s]+):\d+:\d+$/;

/** The file of the first stack frame outside node's internals and node_modules. */
export function firstOwnFrameFile(lines: readonly string[], start = 0, end = lines.length) {
  for (let index = start; index < end; index += 1) {
    const line = (lines[index] ?? '').trim();
    if (!line.startsWith('at ')) continue;
    const path = (FRAME_IN_PARENS.exec(line) ?? BARE_FRAME.exec(line))?.[1];
    if (!path) continue;
    if (path.startsWith('node:') || path.includes('node_modules') || path.includes('<anonymous>'))
      continue;
    return testFileName(path);
  }
  return undefined;
}

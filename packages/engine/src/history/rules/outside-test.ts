import type { FailedTest } from './test-identity';

/**
 * Failures that happen outside a test's body: a test file that fails to
 * load (a syntax error, a missing import) or throws after its tests ended,
 * and a setup or teardown hook that throws before the test runs. The fix
 * is in the file's top level or in the hook, not in the test, so each is
 * keyed as such: the file as a whole (`parse.test.js > (file) (Error:
 * Cannot find module 'helper')`), or the test with the hook its error
 * came from (`store.test.js > store > saves (TypeError in beforeEach)`).
 */

/** The name a failure of the file as a whole has in a key. */
export const WHOLE_FILE = '(file)';

/** `TypeError: x`, `Error [ERR_X]: y`, `SyntaxError: …`, also behind TAP's `# `. */
const ERROR_LINE =
  /^\s*(?:# +)?(?:Uncaught )?((?:[A-Z][A-Za-z]*)?(?:Error|Exception))(?: \[[A-Za-z][\w]*\])?: (\S.*)$/;
/** A quoted path, relative or absolute: its last name is what counts. */
const QUOTED_PATH = /(['"])[^'"\s]*[\\/]([^'"\s\\/]+)\1/g;
const SUMMARY_CHARS = 120;

/** An error as a class: `Error: Cannot find module 'helper'`, quoted paths cut to their names. */
export function errorSummary(text: string): string {
  const named = text.trim().replace(QUOTED_PATH, '$1$2$1');
  // The first sentence says what failed; the rest is advice.
  const sentence = named.indexOf('. ', 20);
  return (sentence < 0 ? named : named.slice(0, sentence)).slice(0, SUMMARY_CHARS);
}

/** The first `Class: message` line from `start` until `end`, as errorSummary gives it. */
export function firstErrorSummary(
  lines: readonly string[],
  start = 0,
  end = lines.length,
): string | undefined {
  for (let index = Math.max(0, start); index < end && index < lines.length; index += 1) {
    const match = ERROR_LINE.exec(lines[index] ?? '');
    if (match) return errorSummary(`${match[1]}: ${match[2]}`);
  }
  return undefined;
}

/** A failure of the file as a whole, keyed by the file and what it threw. */
export function fileFailure(file: string | undefined, error: string | undefined): FailedTest {
  return { file, path: [WHOLE_FILE], errorClass: error ?? 'load error' };
}

/** `TypeError` thrown in a hook: `TypeError in beforeEach`. */
export function inHook(errorClass: string | undefined, hook: string | undefined) {
  if (!hook) return errorClass;
  return errorClass ? `${errorClass} in ${hook}` : `error in ${hook}`;
}

const HOOK_OPENER = /\b(beforeEach|beforeAll|afterEach|afterAll|before|after)\s*\(/;
const TEST_OPENER = /\b(?:it|test|specify)(?:\.\w+)*\s*\(/;
/** vitest's `  12| code` and jest's `> 12 | code` (the `>` marks the failing line). */
const VITEST_FRAME = /^\s*\d+\|(.*)$/;
const VITEST_CARET = /^\s*\|\s*\^/;
const JEST_FRAME = /^\s*(>)?\s*\d+ \|(.*)$/;

/** The code lines of the first code frame in `lines[start..end)`, up to the failing one. */
function codeFrame(lines: readonly string[], start: number, end: number): string[] {
  const frame: string[] = [];
  for (let index = start; index < end && index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (VITEST_CARET.test(line) && frame.length > 0) return frame;
    const jest = JEST_FRAME.exec(line);
    const code = jest?.[2] ?? VITEST_FRAME.exec(line)?.[1];
    if (code !== undefined) frame.push(code);
    if (jest?.[1]) return frame;
  }
  return [];
}

/**
 * The hook the error was thrown in, when the code frame vitest or jest
 * prints under it shows one: the nearest hook or test opened above the
 * failing line. A frame that shows neither says nothing (the test).
 */
export function hookInCodeFrame(
  lines: readonly string[],
  start: number,
  end: number,
): string | undefined {
  const frame = codeFrame(lines, start, end);
  for (let index = frame.length - 1; index >= 0; index -= 1) {
    const code = frame[index] ?? '';
    const hook = HOOK_OPENER.exec(code);
    if (hook) return hook[1];
    if (TEST_OPENER.test(code)) return undefined;
  }
  return undefined;
}

/** node's test runner: a hook's frames (`TestHook.run`, `Suite.runHook`) under the error. */
const NODE_HOOK_FRAME = /^\s*(?:at )?(?:async )?(?:TestHook\.|\S+\.runHook )/;
export const NODE_HOOK = 'a hook';

export function nodeHookInStack(lines: readonly string[], start: number, end: number) {
  for (let index = start; index < end && index < lines.length; index += 1)
    if (NODE_HOOK_FRAME.test(lines[index] ?? '')) return NODE_HOOK;
  return undefined;
}

/** A test name that is a file's path: node's test runner reports a file that failed as a whole so. */
export function isFilePath(name: string): boolean {
  return /^(?:file:\/\/)?(?:[A-Za-z]:)?[\\/]?(?:[^\s\\/]+[\\/])*[^\s\\/]+\.[cm]?[jt]sx?$/.test(
    name.trim(),
  );
}

/**
 * node's test runner, when a test's timer or promise throws after the test
 * ended: `Test "schedules" at timer.test.js:4:3 generated asynchronous
 * activity after the test ended. This activity created the error
 * "TypeError: queue closed" …` (spec and TAP alike).
 */
const NODE_AFTER_TEST =
  /Test "(.+?)" at (\S+?):\d+:\d+ generated asynchronous activity after the test ended\. This activity created the error "([^"]+)"/;

export function nodeAfterTestFailures(lines: readonly string[]): FailedTest[] {
  const failures: FailedTest[] = [];
  for (const line of lines) {
    const match = NODE_AFTER_TEST.exec(line);
    if (!match?.[1]) continue;
    const error = errorSummary(match[3] ?? '');
    failures.push({
      file: match[2],
      path: [match[1]],
      errorClass: `${error} after the test ended`,
    });
  }
  return failures;
}

/**
 * The failures with node's after-the-test errors: the test that left the
 * activity behind stands for its file, which node also reports as failed.
 */
export function withAfterTest(
  tests: readonly FailedTest[],
  lines: readonly string[],
): FailedTest[] {
  const after = nodeAfterTestFailures(lines);
  if (after.length === 0) return [...tests];
  const base = (file: string | undefined) => file?.split(/[\\/]/).at(-1);
  const files = new Set(after.map((test) => base(test.file)));
  const others = tests.filter(
    (test) => !(test.path[0] === WHOLE_FILE && files.has(base(test.file))),
  );
  return [...others, ...after];
}

import { allCaptures, firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';
import {
  errorSummary,
  fileFailure,
  firstErrorSummary,
  hookInCodeFrame,
  inHook,
} from './outside-test';
import {
  type FailedTest,
  failedTestsKey,
  firstErrorClass,
  firstOwnFrameFile,
} from './test-identity';

/** The first assertion or error line under a failed test: what the failure is. */
const FIRST_ERROR = /^\s*((?:[A-Z][A-Za-z]*)?(?:Error|Exception)(?:\s\[[A-Z_]+\])?: .+)$/;

/** vitest: ` FAIL  src/a.test.ts > suite > name` and `Test Files  1 failed`. */
const VITEST_FAIL = /^\s*FAIL\s+(\S+)\s>\s(.+)$/;
/** A file that failed as a whole (it did not load): ` FAIL  src/a.test.ts [ src/a.test.ts ]`. */
const VITEST_FILE_FAIL = /^\s*FAIL\s+(\S+) \[ .+ \]$/;
/** `Errors  1 error`: an error outside any test (thrown after the tests that ran it ended). */
const VITEST_SUMMARY = /^\s*(?:(?:Test Files|Tests)\s+\d+ failed|Errors\s+\d+ errors?$)/;
const VITEST_ORIGIN = /^This error originated in "([^"]+)" test file/;
const VITEST_UNHANDLED = /\u23af (?:Uncaught Exception|Unhandled Rejection) \u23af/;
/** What ends a vitest failure block: the next FAIL header or the `⎯⎯[1/2]⎯` rule. */
const VITEST_BLOCK_END = (line: string) => /^\s*FAIL\s/.test(line) || line.includes('\u23af\u23af');

function blockEnd(lines: readonly string[], from: number): number {
  const end = lines.findIndex((line, index) => index > from && VITEST_BLOCK_END(line));
  return end < 0 ? lines.length : end;
}

/** Errors thrown outside any test: keyed by the file vitest says they came from. */
function vitestUnhandled(lines: readonly string[]): FailedTest[] {
  const tests: FailedTest[] = [];
  lines.forEach((line, index) => {
    if (!VITEST_UNHANDLED.test(line)) return;
    const end = blockEnd(lines, index);
    const file = lines
      .slice(index, end)
      .map((l) => VITEST_ORIGIN.exec(l)?.[1])
      .find(Boolean);
    const error = firstErrorSummary(lines, index + 1, end);
    tests.push(fileFailure(file, error && `unhandled ${error}`));
  });
  return tests;
}

/** vitest: each failed test (file, suites, name) with the class of its error and the hook it came from. */
export const vitestRule: SignatureRule = {
  family: 'vitest',
  key({ lines }) {
    if (!hasLine(lines, VITEST_SUMMARY)) return undefined;
    const tests: FailedTest[] = [];
    lines.forEach((line, index) => {
      const whole = VITEST_FILE_FAIL.exec(line);
      if (whole) {
        tests.push(
          fileFailure(whole[1], firstErrorSummary(lines, index + 1, blockEnd(lines, index))),
        );
        return;
      }
      const fail = VITEST_FAIL.exec(line);
      if (!fail) return;
      // Tests that failed with one error share a block: the error follows the last header.
      let at = index + 1;
      while (VITEST_FAIL.test(lines[at] ?? '')) at += 1;
      const errorClass = firstErrorClass(lines, at, VITEST_BLOCK_END);
      tests.push({
        file: fail[1],
        path: (fail[2] ?? '').split(' > '),
        errorClass: inHook(errorClass, hookInCodeFrame(lines, at, blockEnd(lines, at - 1))),
      });
    });
    if (tests.length === 0) tests.push(...vitestUnhandled(lines));
    return failedTestsKey(tests) ?? keyOf(firstCapture(lines, FIRST_ERROR));
  },
};

/** jest: `FAIL path` per file, `● suite › name` per failed test, `Tests:       1 failed`. */
const JEST_FILE = /^\s*FAIL\s+(\S+)/;
const JEST_FAIL = /^\s*\u25cf (.+)$/;
const JEST_SUMMARY = /^Tests:\s+\d+ failed/;
const JEST_SUITE = /^\s*\u25cf Test suite failed to run/;
const JEST_BLOCK_END = (line: string) =>
  JEST_FAIL.test(line) || JEST_FILE.test(line) || /^Test Suites:/.test(line);

function jestTests(lines: readonly string[]): FailedTest[] {
  const tests: FailedTest[] = [];
  let file: string | undefined;
  lines.forEach((line, index) => {
    const header = JEST_FILE.exec(line);
    if (header) file = header[1];
    const fail = JEST_FAIL.exec(line);
    if (!fail) return;
    let end = lines.findIndex((next, at) => at > index && JEST_BLOCK_END(next));
    if (end < 0) end = lines.length;
    if (JEST_SUITE.test(line)) {
      // A file that cannot load says why on the next line that has text.
      const why = lines.slice(index + 1, end).find((next) => next.trim() !== '');
      tests.push(fileFailure(file, why === undefined ? undefined : errorSummary(why)));
      return;
    }
    const errorClass = firstErrorClass(lines, index + 1, JEST_BLOCK_END);
    tests.push({
      file,
      path: (fail[1] ?? '').split(' \u203a '),
      errorClass: inHook(errorClass, hookInCodeFrame(lines, index + 1, end)),
    });
  });
  return tests;
}

export const jestRule: SignatureRule = {
  family: 'jest',
  key({ lines }) {
    if (!hasLine(lines, JEST_SUMMARY) && !hasLine(lines, JEST_SUITE)) return undefined;
    return (
      failedTestsKey(jestTests(lines)) ??
      keyOf(allCaptures(lines, JEST_FAIL, 5), firstCapture(lines, FIRST_ERROR))
    );
  },
};

/** mocha: `  1 failing`, then `  1) suite` / `       name:` (one title line per level) and the error. */
const MOCHA_SUMMARY = /^\s*\d+ failing\s*$/;
const MOCHA_FAIL = /^\s*\d+\) (.+)$/;
/** A timeout has no frame of the test's own, but ends with its file: `… exceeded. (/a/queue.spec.js)`. */
const FILE_AT_END = /\(((?:[A-Za-z]:)?[^\s()]+\.[cm]?[jt]sx?)\)$/;

function mochaTests(rest: readonly string[]): FailedTest[] {
  const tests: FailedTest[] = [];
  rest.forEach((line, index) => {
    const head = MOCHA_FAIL.exec(line);
    if (!head?.[1]) return;
    // The title runs over lines, one per suite, until the one that ends with a colon.
    const path: string[] = [];
    let at = index;
    let title = head[1];
    for (;;) {
      if (title.trimEnd().endsWith(':')) {
        path.push(title.trimEnd().slice(0, -1).trim());
        break;
      }
      path.push(title.trim());
      at += 1;
      if (at >= rest.length || at > index + 8 || (rest[at] ?? '').trim() === '') break;
      title = rest[at] ?? '';
    }
    let end = rest.findIndex((next, i) => i > at && MOCHA_FAIL.test(next));
    if (end < 0) end = rest.length;
    tests.push({
      file:
        firstOwnFrameFile(rest, at + 1, end) ?? firstCapture(rest.slice(at + 1, end), FILE_AT_END),
      path,
      errorClass: firstErrorClass(rest, at + 1, (next) => MOCHA_FAIL.test(next)),
    });
  });
  return tests;
}

/** mocha stops before any test when a file does not load: `Exception during run: Error: …`. */
const MOCHA_EXCEPTION = /^\s*Exception during run: (.+)$/;
const REQUIRE_STACK_ENTRY = /^- (\S+)$/;
const PATH_AT_LINE = /^(\S+?):\d+$/;

function mochaLoadFailure(lines: readonly string[], start: number): FailedTest {
  const rest = (MOCHA_EXCEPTION.exec(lines[start] ?? '')?.[1] ?? '').trim();
  const end = Math.min(lines.length, start + 60);
  // The file: named on the line (a syntax error), first in the require stack, or its own frame.
  const file =
    PATH_AT_LINE.exec(rest)?.[1] ??
    lines
      .slice(start + 1, end)
      .map((line) => REQUIRE_STACK_ENTRY.exec(line)?.[1])
      .find(Boolean) ??
    firstOwnFrameFile(lines, start + 1, end);
  return fileFailure(
    file,
    firstErrorSummary([rest], 0) ?? firstErrorSummary(lines, start + 1, end),
  );
}

export const mochaRule: SignatureRule = {
  family: 'mocha',
  key({ lines }) {
    const start = lines.findIndex((line) => MOCHA_SUMMARY.test(line));
    if (start < 0) {
      const exception = lines.findIndex((line) => MOCHA_EXCEPTION.test(line));
      return exception < 0 ? undefined : failedTestsKey([mochaLoadFailure(lines, exception)]);
    }
    const rest = lines.slice(start + 1);
    return (
      failedTestsKey(mochaTests(rest)) ??
      keyOf(allCaptures(rest, MOCHA_FAIL, 5), firstCapture(rest, FIRST_ERROR))
    );
  },
};

import { allCaptures, firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';
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
const VITEST_SUMMARY = /^\s*(?:Test Files|Tests)\s+\d+ failed/;
/** What ends a vitest failure block: the next FAIL header or the `⎯⎯[1/2]⎯` rule. */
const VITEST_BLOCK_END = (line: string) => /^\s*FAIL\s/.test(line) || line.includes('\u23af\u23af');

/** vitest: each failed test (file, suites, name) with the class of its error. */
export const vitestRule: SignatureRule = {
  family: 'vitest',
  key({ lines }) {
    if (!hasLine(lines, VITEST_SUMMARY)) return undefined;
    const tests: FailedTest[] = [];
    lines.forEach((line, index) => {
      const fail = VITEST_FAIL.exec(line);
      if (!fail) return;
      // Tests that failed with one error share a block: the error follows the last header.
      let at = index + 1;
      while (VITEST_FAIL.test(lines[at] ?? '')) at += 1;
      tests.push({
        file: fail[1],
        path: (fail[2] ?? '').split(' > '),
        errorClass: firstErrorClass(lines, at, VITEST_BLOCK_END),
      });
    });
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
    if (!fail || JEST_SUITE.test(line)) return;
    tests.push({
      file,
      path: (fail[1] ?? '').split(' \u203a '),
      errorClass: firstErrorClass(lines, index + 1, JEST_BLOCK_END),
    });
  });
  return tests;
}

export const jestRule: SignatureRule = {
  family: 'jest',
  key({ lines }) {
    const suite = lines.findIndex((line) => JEST_SUITE.test(line));
    if (!hasLine(lines, JEST_SUMMARY) && suite < 0) return undefined;
    // A suite that cannot load says why on the next line that has text.
    const why = suite < 0 ? undefined : lines.slice(suite + 1).find((line) => line.trim() !== '');
    const tests = failedTestsKey(jestTests(lines));
    if (tests) return keyOf(tests, why);
    return keyOf(allCaptures(lines, JEST_FAIL, 5), why, firstCapture(lines, FIRST_ERROR));
  },
};

/** mocha: `  1 failing`, then `  1) suite` / `       name:` (one title line per level) and the error. */
const MOCHA_SUMMARY = /^\s*\d+ failing\s*$/;
const MOCHA_FAIL = /^\s*\d+\) (.+)$/;

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
      file: firstOwnFrameFile(rest, at + 1, end),
      path,
      errorClass: firstErrorClass(rest, at + 1, (next) => MOCHA_FAIL.test(next)),
    });
  });
  return tests;
}

export const mochaRule: SignatureRule = {
  family: 'mocha',
  key({ lines }) {
    const start = lines.findIndex((line) => MOCHA_SUMMARY.test(line));
    if (start < 0) return undefined;
    const rest = lines.slice(start + 1);
    return (
      failedTestsKey(mochaTests(rest)) ??
      keyOf(allCaptures(rest, MOCHA_FAIL, 5), firstCapture(rest, FIRST_ERROR))
    );
  },
};

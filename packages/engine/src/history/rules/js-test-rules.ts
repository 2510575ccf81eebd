import { allCaptures, firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';

/** The first assertion or error line under a failed test: what the failure is. */
const FIRST_ERROR = /^\s*((?:[A-Z][A-Za-z]*)?(?:Error|Exception)(?:\s\[[A-Z_]+\])?: .+)$/;

/** vitest: ` FAIL  src/a.test.ts > suite > name` and `Test Files  1 failed`. */
const VITEST_FAIL = /^\s*FAIL\s+\S+\s>\s(.+)$/;
const VITEST_SUMMARY = /^\s*(?:Test Files|Tests)\s+\d+ failed/;

export const vitestRule: SignatureRule = {
  family: 'vitest',
  key({ lines }) {
    if (!hasLine(lines, VITEST_SUMMARY)) return undefined;
    return keyOf(allCaptures(lines, VITEST_FAIL, 5), firstCapture(lines, FIRST_ERROR));
  },
};

/** jest: `● suite › name` and `Tests:       1 failed, 2 passed`. */
const JEST_FAIL = /^\s*\u25cf (.+)$/;
const JEST_SUMMARY = /^Tests:\s+\d+ failed/;
const JEST_SUITE = /^\s*\u25cf Test suite failed to run/;

export const jestRule: SignatureRule = {
  family: 'jest',
  key({ lines }) {
    const suite = lines.findIndex((line) => JEST_SUITE.test(line));
    if (!hasLine(lines, JEST_SUMMARY) && suite < 0) return undefined;
    // A suite that cannot load says why on the next line that has text.
    const why = suite < 0 ? undefined : lines.slice(suite + 1).find((line) => line.trim() !== '');
    return keyOf(allCaptures(lines, JEST_FAIL, 5), why, firstCapture(lines, FIRST_ERROR));
  },
};

/** mocha: `  1 failing`, then `  1) suite` / `       name:` and the error. */
const MOCHA_SUMMARY = /^\s*\d+ failing\s*$/;
const MOCHA_FAIL = /^\s*\d+\) (.+?):?$/;

export const mochaRule: SignatureRule = {
  family: 'mocha',
  key({ lines }) {
    const start = lines.findIndex((line) => MOCHA_SUMMARY.test(line));
    if (start < 0) return undefined;
    const rest = lines.slice(start + 1);
    return keyOf(allCaptures(rest, MOCHA_FAIL, 5), firstCapture(rest, FIRST_ERROR));
  },
};

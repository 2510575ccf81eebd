import { hasLine, type SignatureRule } from '../signature-rule';
import { specFailure } from './js-runner-rules';
import { withAfterTest } from './outside-test';
import { type FailedTest, failedTestsKey } from './test-identity';

/**
 * node's test runner with `--test-reporter=dot`: a line of dots, then
 * `Failed tests:` and each failed test as the spec reporter prints it
 * (`✖ name (1.2ms)` with its error under it), but flat: a suite comes
 * after its failed tests, as `✖ suite` with `'2 subtests failed'`. The
 * suites are rebuilt from those counts, so the same failure has the same
 * key under the dot and the spec reporters.
 */
const DOT_SECTION = /^Failed tests:$/;
const DOT_FAIL = /^\u2716 (.+)$/;
const SUBTESTS_FAILED = /^\s+'(\d+) subtests? failed'$/;

interface Pending {
  /** The failed tests under this item (a test: itself). */
  tests: FailedTest[];
}

export const nodeTestDotRule: SignatureRule = {
  family: 'node-test',
  key({ lines }) {
    const start = lines.findIndex((line) => DOT_SECTION.test(line));
    if (start < 0 || !hasLine(lines.slice(start), DOT_FAIL)) return undefined;
    const pending: Pending[] = [];
    for (let index = start + 1; index < lines.length; index += 1) {
      const fail = DOT_FAIL.exec(lines[index] ?? '');
      if (!fail) continue;
      const count = SUBTESTS_FAILED.exec(lines[index + 1] ?? '')?.[1];
      if (count === undefined) {
        const test = specFailure(lines, index, lines.length, { suites: [], files: new Map() });
        pending.push({ tests: [test] });
        continue;
      }
      // A suite: the last `count` failed items are its own; its name goes in front of theirs.
      const suite = (fail[1] ?? '').replace(/ \([\d.]+m?s\)$/, '');
      const children = pending.splice(Math.max(0, pending.length - Number(count)));
      const tests = children.flatMap((child) => child.tests);
      for (const test of tests) test.path = [suite, ...test.path];
      pending.push({ tests });
    }
    return failedTestsKey(
      withAfterTest(
        pending.flatMap((item) => item.tests),
        lines,
      ),
    );
  },
};

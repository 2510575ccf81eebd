import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';
import { isLowInformation } from './signature-information';

/*
 * One failure printed by reporters a project may set in its config: vitest's
 * TAP (nested and flat) and JUnit XML, mocha's TAP and node's JUnit XML.
 * Captured with the runner versions the failure corpus pins
 * (bench/scripts/capture-failures.ts), cut to what the rules read; the
 * test's name is a parameter, so another failing test is one call away.
 */

const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });

const vitestDefault = (test: string) =>
  [
    ` FAIL  total.test.js > checkout > ${test}`,
    'AssertionError: expected 2 to be 3 // Object.is equality',
    ' ❯ total.test.js:2:72',
    `${'\u23af'.repeat(24)}[1/1]\u23af`,
    ' Test Files  1 failed (1)',
    '      Tests  1 failed | 1 passed (2)',
  ].join('\n');

const vitestYaml = (indent: string) =>
  [
    '---',
    'error:',
    '    name: "AssertionError"',
    '    message: "expected 2 to be 3 // Object.is equality"',
    'at: "/tmp/x/total.test.js:2:72"',
    '...',
  ].map((line) => `${indent}${line}`);

const vitestTap = (test: string) =>
  [
    'TAP version 13',
    '1..1',
    'not ok 1 - total.test.js # time=6.97ms {',
    '    1..1',
    '    not ok 1 - checkout # time=6.25ms {',
    '        1..2',
    `        not ok 1 - ${test} # time=5.49ms`,
    ...vitestYaml('            '),
    '        ok 2 - applies a coupon # time=0.29ms',
    '    }',
    '}',
  ].join('\n');

const vitestTapFlat = (test: string) =>
  [
    'TAP version 13',
    '1..2',
    `not ok 1 - total.test.js > checkout > ${test} # time=5.34ms`,
    ...vitestYaml('    '),
    'ok 2 - total.test.js > checkout > applies a coupon # time=0.28ms',
  ].join('\n');

const mochaTap = (test: string) =>
  [
    `not ok 1 checkout ${test}`,
    '  Expected values to be strictly equal:',
    '  ',
    '  2 !== 3',
    '  ',
    '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    '      at Context.<anonymous> (total.spec.js:2:65)',
    '      at process.processImmediate (node:internal/timers:483:21)',
    'ok 2 checkout applies a coupon',
    '# tests 2',
    '# pass 1',
    '# fail 1',
    '1..2',
  ].join('\n');

const vitestJunit = (test: string) =>
  [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    '<testsuites name="vitest tests" tests="2" failures="1" errors="0" time="0.0067">',
    '    <testsuite name="total.test.js" tests="2" failures="1" errors="0" skipped="0">',
    `        <testcase classname="total.test.js" name="checkout &gt; ${test}" time="0.0052">`,
    '            <failure message="expected 2 to be 3 // Object.is equality" type="AssertionError">',
    'AssertionError: expected 2 to be 3 // Object.is equality',
    ' ❯ total.test.js:2:72',
    '            </failure>',
    '        </testcase>',
    '        <testcase classname="total.test.js" name="checkout &gt; applies a coupon" time="0.0003">',
    '        </testcase>',
    '    </testsuite>',
    '</testsuites>',
  ].join('\n');

const nodeJunit = (test: string) =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<testsuites>',
    `\t<testcase name="${test}" time="0.0018" classname="test" failure="Expected values to be strictly equal:2 !== 3">`,
    '\t\t<failure type="testCodeFailure" message="Expected values to be strictly equal:2 !== 3">',
    'Error [ERR_TEST_FAILURE]: Expected values to be strictly equal:',
    '    at AsyncResource.runInAsyncScope (node:async_hooks:206:9) {',
    "  code: 'ERR_TEST_FAILURE',",
    '  cause: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    '      at TestContext.&lt;anonymous> (/tmp/x/total.test.js:3:38)',
    '      at Test.run (node:internal/test_runner/test:796:25)',
    '\t\t</failure>',
    '\t</testcase>',
    '\t<testcase name="applies a coupon" time="0.0002" classname="test"/>',
    '\t<!-- fail 1 -->',
    '</testsuites>',
  ].join('\n');

describe("vitest's TAP reporters", () => {
  it('are the default reporter’s failure, nested or flat', () => {
    const want = sig(vitestDefault('sums the cart'), 'npx vitest run');
    expect(want.normalized).toBe(
      'vitest: total.test.js > checkout > sums the cart (AssertionError) [shell: vitest]',
    );
    expect(sig(vitestTap('sums the cart'), 'npx vitest run').signature).toBe(want.signature);
    expect(sig(vitestTapFlat('sums the cart'), 'npx vitest run').signature).toBe(want.signature);
  });

  it('tell another failing test apart', () => {
    for (const output of [vitestTap, vitestTapFlat]) {
      expect(sig(output('applies tax'), 'npx vitest run').signature).not.toBe(
        sig(output('sums the cart'), 'npx vitest run').signature,
      );
    }
  });
});

describe("mocha's TAP reporter", () => {
  it('names the failing test, its file and its error', () => {
    const tap = sig(mochaTap('sums the cart'), 'npx mocha --reporter tap');
    expect(tap.normalized).toBe(
      'mocha: total.spec.js > checkout sums the cart (AssertionError) [shell: mocha]',
    );
    expect(isLowInformation(tap)).toBe(false);
    expect(sig(mochaTap('applies tax'), 'npx mocha --reporter tap').signature).not.toBe(
      tap.signature,
    );
  });
});

describe('JUnit XML on the terminal', () => {
  it('keys each failed test case by file, name and error class', () => {
    expect(sig(vitestJunit('sums the cart'), 'npx vitest run --reporter=junit').normalized).toBe(
      'junit-xml: total.test.js > checkout > sums the cart (AssertionError) [shell: vitest]',
    );
    // node wraps the assertion in ERR_TEST_FAILURE; its cause is the class, its stack the file.
    expect(sig(nodeJunit('sums the cart'), 'node --test --test-reporter=junit').normalized).toBe(
      'junit-xml: total.test.js > sums the cart (AssertionError) [shell: node]',
    );
  });

  it('tells another failing test apart, and says nothing of a report that passed', () => {
    for (const output of [vitestJunit, nodeJunit]) {
      expect(sig(output('applies tax'), 'x').signature).not.toBe(
        sig(output('sums the cart'), 'x').signature,
      );
    }
    const passed = '<testsuites>\n<testcase name="adds" classname="math.test.js"/>\n</testsuites>';
    expect(sig(passed, 'npx vitest run').family).not.toBe('junit-xml');
  });
});

describe('unittest run as a script', () => {
  const run = (module: string, file: string) =>
    [
      '.F',
      '='.repeat(70),
      `FAIL: test_sums_the_cart (${module}.CartTest.test_sums_the_cart)`,
      '-'.repeat(70),
      'Traceback (most recent call last):',
      `  File "${file}", line 5, in test_sums_the_cart`,
      '    self.assertEqual(1 + 1, 3)',
      'AssertionError: 2 != 3',
      '',
      '-'.repeat(70),
      'Ran 2 tests in 0.001s',
      '',
      'FAILED (failures=1)',
    ].join('\n');

  it('names the file of the test, not `__main__`', () => {
    const script = sig(run('__main__', '/tmp/p/tests/test_cart.py'), 'python3 tests/test_cart.py');
    expect(script.normalized).toBe(
      'unittest: test_cart.py > CartTest > test_sums_the_cart (AssertionError) [shell: python]',
    );
    expect(
      sig(run('__main__', '/tmp/p/tests/test_invoice.py'), 'python3 tests/test_cart.py').signature,
    ).not.toBe(script.signature);
  });
});

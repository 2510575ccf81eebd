import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';
import { detectToolFailure } from './tool-failure';

/*
 * One failure printed by other reporters, with colours on, or stopped by a
 * timeout: the runner's framing (colour codes, the dot reporter's flat
 * list, a TAP diff that runs for pages, the wording of a timeout) is not
 * the failure. Outputs captured by bench/scripts/failures/js-kind-cases.ts
 * (reporter-checkout-*, timeout-waits-*, long-diff-report-*), cut to what
 * the rules read.
 */

const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });
const ESC = '\u001b';
const c = (code: number, text: string) => `${ESC}[${code}m${text}${ESC}[39m`;

/** vitest with FORCE_COLOR, as captured: the summary lines are coloured too. */
const vitestColour = [
  `${ESC}[41m${ESC}[1m FAIL ${ESC}[22m${ESC}[49m total.test.js${ESC}[2m > ${ESC}[22mcheckout${ESC}[2m > ${ESC}[22msums the cart`,
  c(31, `${ESC}[1mAssertionError${ESC}[22m: expected 2 to be 3 // Object.is equality`),
  `${c(31, `${ESC}[2m${'\u23af'.repeat(24)}[1/1]\u23af${ESC}[22m`)}`,
  `${ESC}[2m Test Files ${ESC}[22m ${ESC}[1m${c(31, '1 failed')}${ESC}[22m${c(90, ' (1)')}`,
  `${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${c(31, '1 failed')}${ESC}[22m`,
].join('\n');
const vitestPlain = [
  ' FAIL  total.test.js > checkout > sums the cart',
  'AssertionError: expected 4 to be 5 // Object.is equality',
  `${'\u23af'.repeat(24)}[1/1]\u23af`,
  ' Test Files  1 failed (1)',
  '      Tests  1 failed | 1 passed (2)',
].join('\n');

describe('colours', () => {
  it('a coloured summary is the same failure, and is seen as failed without an exit code', () => {
    expect(sig(vitestColour, 'npx vitest run').signature).toBe(
      sig(vitestPlain, 'npx vitest run').signature,
    );
    const failure = detectToolFailure({
      tool: 'bash',
      command: 'npx vitest',
      output: vitestColour,
    });
    expect(failure.reasons).toContain('test-summary');
  });
});

const ASSERTION = [
  '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
  '  ',
  '  4 !== 5',
  '  ',
  '      at TestContext.<anonymous> (/tmp/w-1/total.test.js:29:12)',
  '      at Test.runInAsyncScope (node:async_hooks:206:9)',
];

describe("node's test runner: the dot reporter", () => {
  const spec = [
    '▶ checkout',
    '  ✔ applies a coupon (0.5ms)',
    '  ✖ sums the cart (1.009297ms)',
    ...ASSERTION.map((line) => `  ${line}`),
    '',
    '✖ checkout (2.6ms)',
    'ℹ tests 2',
    'ℹ fail 1',
  ].join('\n');
  const dot = [
    '.XX',
    '',
    'Failed tests:',
    '',
    '✖ sums the cart (1.2ms)',
    ...ASSERTION,
    '✖ checkout (2.626263ms)',
    "  '1 subtest failed'",
  ].join('\n');

  it('rebuilds the suites from the subtest counts: the key of the spec reporter', () => {
    const key = sig(dot, 'node --test --test-reporter=dot');
    expect(key.normalized).toContain('total.test.js > checkout > sums the cart (AssertionError)');
    expect(key.signature).toBe(sig(spec, 'node --test').signature);
    expect(detectToolFailure({ tool: 'bash', output: dot }).failed).toBe(true);
  });
});

describe('TAP: a long diff in the YAML block', () => {
  const tap = (rows: number) =>
    [
      'TAP version 13',
      '# Subtest: report',
      '    # Subtest: builds the report',
      '    not ok 1 - builds the report',
      '      ---',
      '      duration_ms: 2.1',
      `      location: '/tmp/w-${rows}/report.test.js:4:3'`,
      "      failureType: 'testCodeFailure'",
      '      error: |-',
      '        Expected values to be strictly deep-equal:',
      ...Array.from({ length: rows }, (_, i) =>
        i % 3 === 0 ? '        ...' : `              name: 'item ${i}',`,
      ),
      "      code: 'ERR_ASSERTION'",
      "      name: 'AssertionError'",
      '      ...',
      '    1..1',
      'not ok 1 - report',
      '  ---',
      "  failureType: 'subtestsFailed'",
      '  ...',
      '# fail 1',
    ].join('\n');

  it("reads the fields after the diff, not the diff's own `name:` and `...` lines", () => {
    const long = sig(tap(600), 'node --test --test-reporter=tap');
    expect(long.normalized).toContain(
      'report.test.js > report > builds the report (AssertionError)',
    );
    expect(sig(tap(12), 'node --test').signature).toBe(long.signature);
  });
});

describe('timeouts: a test that ran too long has the class `timeout`, whatever the runner wraps it in', () => {
  const vitest = (ms: number) =>
    ` FAIL  queue.test.js > queue > waits\nError: Test timed out in ${ms}ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".\n ❯ queue.test.js:6:3\n\n ${'\u23af'.repeat(4)}[1/1]\u23af\n Test Files  1 failed (1)\n`;
  const jest = (ms: number) =>
    `FAIL ./queue.test.js\n  ● queue › waits\n\n    thrown: "Exceeded timeout of ${ms} ms for a test.\n    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."\n\nTests:       1 failed, 1 passed, 2 total\n`;
  const mocha = (ms: number) =>
    `  1 failing\n\n  1) queue\n       waits:\n     Error: Timeout of ${ms}ms exceeded. For async tests and hooks, ensure "done()" is called; if returning a Promise, ensure it resolves. (/tmp/w-${ms}/queue.spec.js)\n      at listOnTimeout (node:internal/timers:581:17)\n`;
  const nodeSpec = (ms: number) =>
    `▶ queue\n  ✔ drains (2.9ms)\n  ✖ waits (${ms}.4ms)\n    'test timed out after ${ms}ms'\n\n✖ queue (65ms)\nℹ tests 2\nℹ pass 1\nℹ fail 0\nℹ cancelled 1\n\n✖ failing tests:\n\ntest at queue.test.js:7:3\n✖ waits (${ms}.4ms)\n  'test timed out after ${ms}ms'\n`;
  const nodeTap = (ms: number) =>
    `TAP version 13\n# Subtest: queue\n    # Subtest: waits\n    not ok 2 - waits\n      ---\n      duration_ms: ${ms}.8\n      location: '/tmp/w-1/queue.test.js:14:3'\n      failureType: 'testTimeoutFailure'\n      error: 'test timed out after ${ms}ms'\n      code: 'ERR_TEST_FAILURE'\n      ...\n    1..2\nnot ok 1 - queue\n  ---\n  failureType: 'subtestsFailed'\n  ...\n# fail 0\n# cancelled 1\n`;

  it.each([
    ['vitest', vitest, 'npx vitest run'],
    ['jest', jest, 'npx jest'],
    ['mocha', mocha, 'npx mocha'],
    ["node's test runner (spec: only `cancelled` in the tally)", nodeSpec, 'node --test'],
    ["node's test runner (TAP: `testTimeoutFailure`)", nodeTap, 'node --test'],
  ] as const)('%s', (_runner, make, command) => {
    const key = sig(make(60), command);
    expect(key.normalized).toMatch(/queue > waits \(timeout\)/);
    expect(sig(make(140), command).signature).toBe(key.signature);
    expect(detectToolFailure({ tool: 'bash', command, output: make(60) }).failed).toBe(true);
  });

  it('mocha: the file its timeout message ends with is the test file', () => {
    expect(sig(mocha(60), 'npx mocha').normalized).toContain(
      'queue.spec.js > queue > waits (timeout)',
    );
  });

  it("node's spec and TAP reporters give one key", () => {
    expect(sig(nodeSpec(60), 'node --test').signature).toBe(
      sig(nodeTap(100), 'node --test').signature,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { commandFile } from './command-family';
import { errorSignature } from './error-signature';

/*
 * ava's `--tap` reporter prints each test as a flat `not ok N - title`
 * and names no file; its YAML names the assertion or the error thrown.
 * Read with the file the command named, it is the default reporter's
 * failure (bench/fixtures/failures/ava/reporter-checkout-*).
 */

const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });

const tapFailure = (title: string, fields: string[]) =>
  [
    'TAP version 13',
    'ok 1 - applies a coupon',
    `not ok 2 - ${title}`,
    '  ---',
    ...fields.map((field) => `    ${field}`),
    '    at: >-',
    '      ExecutionContext.is',
    '      (file:///tmp/x/node_modules/ava/lib/assert.js:309:16)',
    '  ...',
    '',
    '1..2',
    '# tests 2',
    '# pass 1',
    '# fail 1',
  ].join('\n');

const assertion = (title: string, line = 6) =>
  [
    '  ✔ applies a coupon',
    `  ✘ [fail]: ${title}`,
    '  ─',
    '',
    `  ${title}`,
    '',
    `  total.test.js:${line}`,
    '',
    `   ${line}:     t.is(0 + 1, 2);`,
    '',
    '  Difference (- actual, + expected):',
    '',
    '  - 1',
    '  + 2',
    '',
    '  ─',
    '',
    '  1 test failed',
  ].join('\n');

describe('ava --tap', () => {
  it('is the default reporter’s failure when the command names the file', () => {
    const tap = sig(
      tapFailure('sums the cart', ['name: AssertionError', 'assertion: t.is()']),
      'npx ava --tap total.test.js',
    );
    expect(tap.family).toBe('ava');
    expect(tap.normalized).toBe('ava: total.test.js > sums the cart (t.is) [shell: ava]');
    expect(tap.signature).toBe(sig(assertion('sums the cart'), 'npx ava total.test.js').signature);
  });

  it('tells another test and another assertion apart', () => {
    const run = (title: string, fields: string[]) =>
      sig(tapFailure(title, fields), 'npx ava --tap total.test.js').signature;
    const base = run('sums the cart', ['name: AssertionError', 'assertion: t.is()']);
    expect(run('applies tax', ['name: AssertionError', 'assertion: t.is()'])).not.toBe(base);
    expect(run('sums the cart', ['name: AssertionError', 'assertion: t.deepEqual()'])).not.toBe(
      base,
    );
    expect(run('sums the cart', ['name: TypeError', "message: 'x is not a function'"])).toBe(
      sig(tapFailure('sums the cart', ['name: TypeError']), 'npx ava --tap total.test.js')
        .signature,
    );
  });

  it('keeps the file prefix of several files and is informative without a named file', () => {
    const several = sig(
      tapFailure('total › sums the cart', ['name: AssertionError', 'assertion: t.is()']),
      'npx ava --tap',
    );
    expect(several.normalized).toBe('ava: total > sums the cart (t.is) [shell: ava]');
    // Through a script: the ava assertion in the YAML says whose TAP it is.
    const script = sig(
      tapFailure('sums the cart', ['name: AssertionError', 'assertion: t.is()']),
      'npm test',
    );
    expect(script.family).toBe('ava');
  });

  it('leaves node-tap’s flat assertions to the tap rule', () => {
    const nodeTap = [
      'TAP version 14',
      'not ok 1 - should be equal',
      '  ---',
      '  found: 1',
      '  wanted: 2',
      '  ...',
      '1..1',
    ].join('\n');
    expect(sig(nodeTap, 'node test.js').family).not.toBe('ava');
  });
});

describe('commandFile', () => {
  it('is the one source file a command names', () => {
    expect(commandFile('npx ava --tap total.test.js')).toBe('total.test.js');
    expect(commandFile("pytest 'tests/test_cart.py' -x")).toBe('tests/test_cart.py');
    expect(commandFile('npx ava a.test.js b.test.js')).toBeUndefined();
    expect(commandFile('npx ava --config=ava.config.js')).toBeUndefined();
    expect(commandFile('pnpm test')).toBeUndefined();
    expect(commandFile(undefined)).toBeUndefined();
  });
});

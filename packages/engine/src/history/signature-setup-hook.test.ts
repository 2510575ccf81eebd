import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';

/*
 * A setup hook or fixture that throws (beforeEach, a pytest fixture,
 * unittest's setUp) fails the test it runs for with the same error a
 * broken test body would throw; the fix is in the hook. Outputs captured
 * by bench/scripts/failures/js-kind-cases.ts and native-kind-cases.ts
 * (setup-hook-in-hook-* and setup-hook-in-body-*), cut to what the rules
 * read; the folder and the padding vary.
 */

const BROKEN = ['    const db = undefined;', '    db.connect();'];
/** The lines around the failing one, as the test file holds them. */
const HOOK = ['  beforeEach(() => {', ...BROKEN, '  });', "  it('saves', () => {"];
const BODY = ['  });', "  it('saves', () => {", ...BROKEN, '  });', '});'];

function vitest(code: string[], failing: number, pad: number): string {
  const frame = code.map((line, i) => `     ${pad + i + 1}| ${line}`);
  frame.splice(failing + 1, 0, '       |        ^');
  return [
    ' FAIL  store.test.js > store > saves',
    "TypeError: Cannot read properties of undefined (reading 'connect')",
    ` ❯ store.test.js:${pad + failing + 1}:8`,
    ...frame,
    '',
    '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
    ' Test Files  1 failed (1)',
    '      Tests  1 failed (1)',
  ].join('\n');
}

function jest(code: string[], failing: number, pad: number): string {
  const frame = code.map(
    (line, i) => `    ${i === failing ? '>' : ' '} ${String(pad + i + 1).padStart(2)} | ${line}`,
  );
  frame.splice(failing + 1, 0, '         |        ^');
  return [
    'FAIL test/store.test.js',
    '  ● store › saves',
    '',
    "    TypeError: Cannot read properties of undefined (reading 'connect')",
    '',
    ...frame,
    '',
    `      at Object.connect (test/store.test.js:${pad + failing + 1}:8)`,
    '',
    'Test Suites: 1 failed, 1 total',
    'Tests:       1 failed, 1 total',
  ].join('\n');
}

function nodeSpec(inHook: boolean, dir: string): string {
  const frames = inHook
    ? [
        'TestHook.runInAsyncScope (node:async_hooks:206:9)',
        'Suite.runHook (node:internal/test_runner/test:723:20)',
      ]
    : [
        'Test.runInAsyncScope (node:async_hooks:206:9)',
        'Test.run (node:internal/test_runner/test:796:25)',
      ];
  return [
    '▶ store',
    '  ✖ saves (0.864391ms)',
    "    TypeError [Error]: Cannot read properties of undefined (reading 'connect')",
    `        at TestContext.<anonymous> (/tmp/${dir}/store.test.js:6:8)`,
    ...frames.map((frame) => `        at ${frame}`),
    '',
    '✖ store (1.736925ms)',
    'ℹ tests 1',
    'ℹ fail 1',
  ].join('\n');
}

function nodeTap(inHook: boolean, dir: string): string {
  return [
    'TAP version 13',
    '# Subtest: store',
    '    # Subtest: saves',
    '    not ok 1 - saves',
    '      ---',
    '      duration_ms: 0.811693',
    `      location: '/tmp/${dir}/test/store.test.js:15:3'`,
    `      failureType: '${inHook ? 'hookFailed' : 'testCodeFailure'}'`,
    `      error: "Cannot read properties of undefined (reading 'connect')"`,
    "      code: 'ERR_TEST_FAILURE'",
    "      name: 'TypeError'",
    '      ...',
    '    1..1',
    'not ok 1 - store',
    '  ---',
    "  type: 'suite'",
    "  failureType: 'subtestsFailed'",
    '  ...',
    '# fail 1',
  ].join('\n');
}

const pytest = (status: 'ERROR' | 'FAILED') =>
  [
    status === 'ERROR'
      ? '____________________ ERROR at setup of TestStore.test_saves ____________________'
      : '_____________________________ TestStore.test_saves ______________________________',
    "E       AttributeError: 'NoneType' object has no attribute 'connect'",
    '=========================== short test summary info ============================',
    `${status} test_store.py::TestStore::test_saves - AttributeError: 'NoneType' object has no attribute 'connect'`,
    `1 ${status === 'ERROR' ? 'error' : 'failed'} in 0.59s`,
  ].join('\n');

const unittest = (method: string, dir: string) =>
  [
    'ERROR: test_saves (test_store.TestStore.test_saves)',
    '----------------------------------------------------------------------',
    'Traceback (most recent call last):',
    `  File "/tmp/${dir}/test_store.py", line 7, in ${method}`,
    '    db.connect()',
    "AttributeError: 'NoneType' object has no attribute 'connect'",
    '',
    '----------------------------------------------------------------------',
    'FAILED (errors=1)',
  ].join('\n');

const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });

describe('setup hooks: an error in a hook is not the same failure as one in the test body', () => {
  it('vitest: the code frame shows the beforeEach the error came from', () => {
    const hook = sig(vitest(HOOK, 2, 0), 'npx vitest run');
    expect(sig(vitest(HOOK, 2, 14), 'npx vitest run').signature).toBe(hook.signature);
    expect(sig(vitest(BODY, 3, 0), 'npx vitest run').signature).not.toBe(hook.signature);
    expect(hook.normalized).toContain('store.test.js > store > saves (TypeError in beforeEach)');
  });

  it('jest: the same from its code frame', () => {
    const hook = sig(jest(HOOK, 2, 1), 'npx jest');
    expect(sig(jest(HOOK, 2, 8), 'npx jest').signature).toBe(hook.signature);
    expect(sig(jest(BODY, 3, 1), 'npx jest').signature).not.toBe(hook.signature);
    expect(hook.normalized).toContain('(TypeError in beforeEach)');
  });

  it("node's test runner: a hook's frames (spec) and `hookFailed` (TAP) give one key", () => {
    const spec = sig(nodeSpec(true, 'w-1'), 'node --test');
    const tap = sig(nodeTap(true, 'w-2'), 'node --test --test-reporter=tap');
    expect(tap.signature).toBe(spec.signature);
    expect(spec.normalized).toContain('store.test.js > store > saves (TypeError in a hook)');
    expect(sig(nodeSpec(false, 'w-1'), 'node --test').signature).not.toBe(spec.signature);
    expect(sig(nodeTap(false, 'w-2'), 'node --test').signature).not.toBe(spec.signature);
  });

  it("pytest: an ERROR is the fixture's, a FAILED the test's", () => {
    const fixture = sig(pytest('ERROR'), 'pytest -q');
    expect(sig(pytest('FAILED'), 'pytest -q').signature).not.toBe(fixture.signature);
    expect(fixture.normalized).toContain('test_saves AttributeError in setup');
  });

  it("unittest: a traceback through setUp is the fixture's", () => {
    const setUp = sig(unittest('setUp', 'w-1'), 'python3 -m unittest');
    expect(sig(unittest('setUp', 'w-2'), 'python3 -m unittest').signature).toBe(setUp.signature);
    expect(sig(unittest('test_saves', 'w-1'), 'python3 -m unittest').signature).not.toBe(
      setUp.signature,
    );
    expect(setUp.normalized).toContain('(AttributeError in setUp)');
  });
});

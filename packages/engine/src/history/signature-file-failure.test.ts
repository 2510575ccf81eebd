import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';
import { isLowInformation } from './signature-information';

/*
 * A test file that fails as a whole: it does not load (a syntax error, a
 * missing import) or throws after its tests ended. Each runner says so
 * its own way; the key is the file and the error (`parse.test.js > (file)
 * (Error: Cannot find module 'missing-helper')`), so another file or
 * another error is another failure. Outputs captured by
 * bench/scripts/failures/js-kind-cases.ts and native-kind-cases.ts
 * (load-*, after-test-*), cut to what the rules read; the folder and the
 * line vary.
 */

const MISSING = "Error: Cannot find module './missing-helper'";
const SYNTAX = 'SyntaxError: missing ) after argument list';

const vitest = (file: string, dir: string) => `
 ❯ ${dir}${file} (0 test)

⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  ${dir}${file} [ ${dir}${file} ]
Error: Cannot find module '/tmp/w-${dir.length}/${dir}missing-helper.js' imported from /tmp/w-${dir.length}/${dir}${file}
 ❯ ${dir}${file}:9:1

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  no tests
`;

const jest = (file: string, dir: string) => `FAIL ${dir}${file}
  ● Test suite failed to run

    Cannot find module './missing-helper' from '${dir}${file}'

      at Object.require (${dir}${file}:8:20)

Test Suites: 1 failed, 1 total
Tests:       0 total
`;

const mocha = (file: string, dir: string, error: string) => `
 Exception during run: ${error === SYNTAX ? `/tmp/w-1/${dir}${file}:11\n    assert.strictEqual(1 + 1, 2;\n\n${error}` : `${error}\nRequire stack:\n- /tmp/w-1/${dir}${file}`}
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
`;

const ava = (file: string, dir: string, error: string) => `
  Uncaught exception in ${dir}${file}

  ${dir}${file}:9

  ${error}

  ✘ ${dir}${file} exited with a non-zero exit code: 1
  ─

  1 uncaught exception
`;

const nodeSpec = (file: string, dir: string, error: string) => `${error}
Require stack:
- /tmp/w-1/${dir}${file}
    at Object.<anonymous> (/tmp/w-1/${dir}${file}:3:20)

Node.js v20.20.2
✖ /tmp/w-1/${dir}${file} (41.592871ms)
  'test failed'

ℹ tests 1
ℹ fail 1
`;

const nodeTap = (file: string, dir: string, error: string) => `TAP version 13
# ${error}
# Require stack:
# - /tmp/w-2/${dir}${file}
# Node.js v20.20.2
# Subtest: /tmp/w-2/${dir}${file}
not ok 1 - /tmp/w-2/${dir}${file}
  ---
  duration_ms: 43.755111
  location: '/tmp/w-2/${dir}${file}:1:1'
  failureType: 'testCodeFailure'
  error: 'test failed'
  code: 'ERR_TEST_FAILURE'
  ...
1..1
# fail 1
`;

const unittest = (module: string, error: string) => `E
======================================================================
ERROR: ${module} (unittest.loader._FailedTest.${module})
----------------------------------------------------------------------
ImportError: Failed to import test module: ${module}
Traceback (most recent call last):
  File "/tmp/w-1/${module}.py", line 4, in <module>
    import missing_helper
${error}

----------------------------------------------------------------------
FAILED (errors=1)
`;

const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });

/** One failure in two places is one key, and neither another file nor another error shares it. */
function expectFileKeyed(
  make: (file: string, dir: string, error: string) => string,
  command: string,
  errors: [string, string] = [MISSING, SYNTAX],
) {
  const here = sig(make('parse.test.js', '', errors[0]), command);
  expect(isLowInformation(here), here.normalized).toBe(false);
  expect(sig(make('parse.test.js', 'test/', errors[0]), command).signature).toBe(here.signature);
  expect(sig(make('format.test.js', '', errors[0]), command).signature).not.toBe(here.signature);
  expect(sig(make('parse.test.js', '', errors[1]), command).signature).not.toBe(here.signature);
  expect(here.normalized).toContain('parse.test.js > (file)');
  return here;
}

describe('a test file that fails as a whole is keyed by the file and its error', () => {
  it('vitest: `FAIL file [ file ]`', () => {
    const make = (file: string, dir: string, error: string) =>
      error === MISSING ? vitest(file, dir) : vitest(file, dir).replace(/Cannot find.*/, error);
    const key = expectFileKeyed(make, 'npx vitest run');
    expect(key.normalized).toContain("Cannot find module 'missing-helper.js'");
  });

  it('jest: `Test suite failed to run`', () => {
    const make = (file: string, dir: string, error: string) =>
      error === MISSING ? jest(file, dir) : jest(file, dir).replace(/Cannot find.*/, error);
    expectFileKeyed(make, 'npx jest');
  });

  it('mocha: `Exception during run`', () => expectFileKeyed(mocha, 'npx mocha'));
  it('ava: `Uncaught exception in file`', () => expectFileKeyed(ava, 'npx ava'));

  it("node's test runner: a test named by the file's path, spec and TAP alike", () => {
    const spec = expectFileKeyed(nodeSpec, 'node --test');
    expect(sig(nodeTap('parse.test.js', 'test/', MISSING), 'node --test').signature).toBe(
      spec.signature,
    );
    expect(spec.normalized).toContain("(Error: Cannot find module 'missing-helper')");
  });

  it("unittest: the loader's _FailedTest is the module", () => {
    const make = (file: string, _dir: string, error: string) =>
      unittest(file.replace('.test.js', '').replace(/^/, 'test_'), error);
    const missing = "ModuleNotFoundError: No module named 'missing_helper'";
    const key = sig(make('parse.test.js', '', missing), 'python3 -m unittest');
    expect(key.normalized).toContain('test_parse.py > (file) (ModuleNotFoundError');
    expect(sig(make('format.test.js', '', missing), 'python3 -m unittest').signature).not.toBe(
      key.signature,
    );
  });
});

describe('pytest: a module that fails to collect is keyed by its exception line', () => {
  const collect = (dir: string, error: string) => `
_____________________ ERROR collecting ${dir}test_parse.py ______________________
E     File "/tmp/w-1/${dir}test_parse.py", line 6
E       assert 0 + 1 ==) 1
E                      ^
E   ${error}
=========================== short test summary info ============================
ERROR ${dir}test_parse.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
1 error in 0.12s
`;
  it('a syntax error is its class and message, not the frame above it', () => {
    const here = sig(collect('', "SyntaxError: unmatched ')'"), 'pytest -q');
    expect(isLowInformation(here), here.normalized).toBe(false);
    expect(here.normalized).toContain("test_parse.py | SyntaxError: unmatched ')'");
    expect(sig(collect('test/', "SyntaxError: unmatched ')'"), 'pytest').signature).toBe(
      here.signature,
    );
    expect(sig(collect('', "SyntaxError: '(' was never closed"), 'pytest').signature).not.toBe(
      here.signature,
    );
  });
});

describe('an error thrown after the tests ended is keyed by where it came from', () => {
  it("vitest's unhandled errors name the file", () => {
    const unhandled = (file: string) => `
 ✓ ${file} (2 tests) 83ms
⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯
⎯⎯⎯⎯⎯ Uncaught Exception ⎯⎯⎯⎯⎯
TypeError: queue closed
 ❯ Timeout._onTimeout ${file}:5:13
This error originated in "${file}" test file. It doesn't mean the error was thrown inside the file itself, but while it was running.
⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 Test Files  1 passed (1)
      Tests  2 passed (2)
     Errors  1 error
`;
    const timer = sig(unhandled('timer.test.js'), 'npx vitest run');
    expect(timer.normalized).toContain(
      'timer.test.js > (file) (unhandled TypeError: queue closed)',
    );
    expect(sig(unhandled('queue.test.js'), 'npx vitest run').signature).not.toBe(timer.signature);
  });

  it("node's test runner names the test that left the activity behind", () => {
    const after = (test: string, tap: boolean) => {
      const line = `Error: Test "${test}" at timer.test.js:4:3 generated asynchronous activity after the test ended. This activity created the error "TypeError: queue closed" and would have caused the test to fail, but instead triggered an uncaughtException event.`;
      return tap
        ? `TAP version 13\n# ${line}\n# Subtest: /tmp/w-2/timer.test.js\nnot ok 1 - /tmp/w-2/timer.test.js\n  ---\n  failureType: 'testCodeFailure'\n  ...\n# fail 1\n`
        : `▶ timer\n  ✔ ${test} (0.9ms)\n✔ timer (82ms)\nℹ ${line}\n✖ /tmp/w-1/timer.test.js (137.6ms)\n  'test failed'\n\nℹ tests 3\nℹ fail 1\n`;
    };
    const spec = sig(after('schedules', false), 'node --test');
    expect(sig(after('schedules', true), 'node --test').signature).toBe(spec.signature);
    expect(sig(after('waits', false), 'node --test').signature).not.toBe(spec.signature);
    expect(spec.normalized).toContain(
      'timer.test.js > schedules (TypeError: queue closed after the test ended)',
    );
  });
});

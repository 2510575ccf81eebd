import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';

/*
 * Parametrized tests (vitest and jest `it.each`, a loop of `it`s, pytest's
 * `parametrize`, unittest's `subTest`): the parameters are in the test's
 * name, and another parameter failing is another failure. Outputs captured
 * by bench/scripts/failures/js-kind-cases.ts and native-kind-cases.ts
 * (bench/fixtures/failures/<runner>/parametrized-second-*.txt), cut to what
 * the rules read; the folder, the padding and the duration vary.
 */

const vitest = (n: number, dir: string, line: number) => `
 RUN  v4.1.12 /tmp/cairn-capture-rTSZMF/w-${dir}

 ❯ ${dir === 'a' ? '' : 'test/'}add.test.js (3 tests | 1 failed) 9ms
     ✓ adds 1 + 1 1ms
     × adds ${n} + ${n} 6ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  ${dir === 'a' ? '' : 'test/'}add.test.js > add > adds ${n} + ${n}
AssertionError: expected ${2 * n} to be ${2 * n + 1} // Object.is equality
 ❯ add.test.js:${line}:19
     ${line}|     expect(a + b).toBe(sum);
       |                   ^

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
`;

const pytest = (
  id: string,
  seconds: string,
) => `.F.                                                                      [100%]
=========================== short test summary info ============================
FAILED test_add.py::TestAdd::test_adds[${id}] - assert (2 + 2) == 5
1 failed, 2 passed in ${seconds}s
`;

const unittest = (n: number, dir: string) => `F
======================================================================
FAIL: test_adds (test_add.TestAdd.test_adds) (n=${n})
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/cairn-capture-rTSZMF/w-${dir}/test_add.py", line ${n + 7}, in test_adds
    self.assertEqual(a + b, total)
AssertionError: ${2 * n} != ${2 * n + 1}

----------------------------------------------------------------------
Ran 1 test in 0.000s

FAILED (failures=1)
`;

const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });

describe('parametrized tests: the parameters in a name are part of the failure', () => {
  it('vitest: `adds 2 + 2` and `adds 3 + 3` are two failures, each the same anywhere', () => {
    const second = sig(vitest(2, 'a', 3), 'npx vitest run add.test.js');
    expect(sig(vitest(2, 'b', 10), 'npx vitest run test/add.test.js').signature).toBe(
      second.signature,
    );
    expect(sig(vitest(3, 'a', 3), 'npx vitest run add.test.js').signature).not.toBe(
      second.signature,
    );
    expect(second.normalized).toContain('add.test.js > add > adds 2 + 2 (AssertionError)');
  });

  it('pytest: the parameter id of the node id counts, the duration does not', () => {
    const second = sig(pytest('2-2-5', '0.77'), 'pytest -q test_add.py');
    expect(sig(pytest('2-2-5', '1.03'), 'pytest -q test_add.py').signature).toBe(second.signature);
    expect(sig(pytest('3-3-7', '0.77'), 'pytest -q test_add.py').signature).not.toBe(
      second.signature,
    );
    expect(second.normalized).toContain('test_adds[2-2-5]');
  });

  it("unittest: a subtest's parameters count", () => {
    const second = sig(unittest(2, 'x1'), 'python3 -m unittest');
    expect(sig(unittest(2, 'y2'), 'python3 -m unittest').signature).toBe(second.signature);
    expect(sig(unittest(3, 'x1'), 'python3 -m unittest').signature).not.toBe(second.signature);
    expect(second.normalized).toContain('test_adds (n=2)');
  });

  it('durations, paths and ids in a name still go', () => {
    const named = (name: string) =>
      sig(vitest(2, 'a', 3).replaceAll('adds 2 + 2', name), 'npx vitest run');
    expect(named('waits 120ms for /tmp/w-1/lock').signature).toBe(
      named('waits 80ms for /tmp/w-2/lock').signature,
    );
  });
});

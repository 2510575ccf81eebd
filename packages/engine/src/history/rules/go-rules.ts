import { allCaptures, firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';
import { type FailedTest, failedTestsKey, leafTests, testFileName } from './test-identity';

const GO_TEST_FAIL = /^\s*--- FAIL: (\S+)/;
const GO_PANIC = /^panic: (.+?)(?: \[recovered\])?$/;
const GO_TEST_LOG = /^\s+(\S+_test\.go):\d+: (.*)$/;
/** A panic's frame in a test file: `\t/src/app/math_test.go:15 +0x1d`. */
const GO_TEST_FRAME = /^\s+(\S+_test\.go):\d+(?: \+0x[0-9a-f]+)?$/;
/** testify's `Error:      \tNot equal:` names the assertion that failed. */
const TESTIFY_ERROR = /^\s+Error:\s+(.+?):?\s*$/;

/**
 * go test: each failed test (subtests as `TestX/name`, the parent left out)
 * with the file its log lines or panic frame name, and how it failed: the
 * panic's message, testify's assertion, else `t.Error`.
 */
function goTests(lines: readonly string[]): FailedTest[] {
  const tests: FailedTest[] = [];
  let current: FailedTest | undefined;
  const panic = firstCapture(lines, GO_PANIC);
  for (const line of lines) {
    const fail = GO_TEST_FAIL.exec(line);
    if (fail?.[1]) {
      current = { path: fail[1].split('/'), errorClass: panic ? `panic: ${panic}` : 't.Error' };
      tests.push(current);
      continue;
    }
    if (!current) continue;
    const log = GO_TEST_LOG.exec(line) ?? GO_TEST_FRAME.exec(line);
    if (log?.[1]) current.file ??= testFileName(log[1]);
    const testify = TESTIFY_ERROR.exec(line)?.[1];
    if (testify && !panic) current.errorClass = testify;
  }
  return leafTests(tests);
}

export const goTestRule: SignatureRule = {
  family: 'go-test',
  key({ lines }) {
    if (!hasLine(lines, GO_TEST_FAIL)) return undefined;
    return failedTestsKey(goTests(lines)) ?? keyOf(allCaptures(lines, GO_TEST_FAIL, 5));
  },
};

/** `./main.go:12:5: undefined: foo` (the compiler), `go: ...` (the go command). */
const GO_COMPILE = /^\S+\.go:\d+(?::\d+)?: (.+)$/;
const GO_COMMAND = /^go: (.+)$/;

/** `(imported by example.com/shop); to add:`: which package imports it is where, not what. */
const IMPORTED_BY = / \(imported by \S+\)(?:; to add:)?$/;
const withoutImporter = (line: string) => line.replace(IMPORTED_BY, '');

/** Go: compiler messages (a set), the go command's own errors, or a panic. */
export const goRule: SignatureRule = {
  family: 'go',
  key({ lines }) {
    const compile = allCaptures(lines.map(withoutImporter), GO_COMPILE);
    if (compile.length > 0) return compile;
    const command = firstCapture(lines, GO_COMMAND);
    if (command) return keyOf(command);
    if (hasLine(lines, /^goroutine \d+ \[/)) return keyOf(firstCapture(lines, GO_PANIC));
    return undefined;
  },
};

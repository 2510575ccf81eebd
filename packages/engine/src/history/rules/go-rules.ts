import { allCaptures, firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';

const GO_TEST_FAIL = /^\s*--- FAIL: (\S+)/;
const GO_PANIC = /^panic: (.+?)(?: \[recovered\])?$/;
const GO_TEST_ERROR = /^\s+\S+\.go:\d+: (.+)$/;

/** go test: the failed tests (subtests included), the panic if any, else the first t.Error line. */
export const goTestRule: SignatureRule = {
  family: 'go-test',
  key({ lines }) {
    const failed = allCaptures(lines, GO_TEST_FAIL, 5);
    if (failed.length === 0) return undefined;
    return keyOf(failed, firstCapture(lines, GO_PANIC) ?? firstCapture(lines, GO_TEST_ERROR));
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

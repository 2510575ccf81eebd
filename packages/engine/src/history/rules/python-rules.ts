import { scrubVolatile } from '../scrub-volatile';
import { firstCapture, hasLine, keyOf, lastCapture, type SignatureRule } from '../signature-rule';
import { keepQuotedFileName } from './quoted-file-name';
import { type FailedTest, failedTestsKey } from './test-identity';

/** pytest: `FAILED tests/test_a.py::test_x - AssertionError: ...` in the short summary. */
const PYTEST_SUMMARY = /^=+ short test summary info =+$/;
const isPytestTally = (line: string) =>
  line.startsWith('=') && line.endsWith('=') && /\b\d+ (?:failed|errors?)\b/.test(line);
const PYTEST_FAILED = /^(?:FAILED|ERROR) (\S+)(?: - (\S+))?/;
const PYTEST_CLASS = /^([A-Za-z_.]*(?:Error|Exception|Exit))\b/;
/** An `E   ` line of a failure (not the `E   [100%]` of the progress line). */
const PYTEST_E_LINE = /^E\s+(?!\[\s*\d+%\]$)(\S.*)$/;

const TEST_FOLDER = /^((?:FAILED|ERROR) )[^\s:]*\//;
const withoutTestFolder = (line: string) => line.replace(TEST_FOLDER, '$1');

/**
 * One line of the short summary: the node id (without its folders: where
 * the test lives is not what failed) and the exception's class; a bare
 * `assert` failed with an AssertionError.
 */
function pytestFailure(line: string): string | undefined {
  const match = PYTEST_FAILED.exec(withoutTestFolder(line));
  if (!match?.[1]) return undefined;
  const word = match[2] ?? '';
  const errorClass = word === 'assert' ? 'AssertionError' : PYTEST_CLASS.exec(word)?.[1];
  return scrubVolatile(errorClass ? `${match[1]} ${errorClass}` : match[1]);
}

export const pytestRule: SignatureRule = {
  family: 'pytest',
  key({ lines }) {
    if (!hasLine(lines, PYTEST_SUMMARY) && !lines.some(isPytestTally)) return undefined;
    const failed = [
      ...new Set(lines.map(pytestFailure).filter((id): id is string => id !== undefined)),
    ]
      .sort()
      .slice(0, 5);
    // A failure without a class (a collection error) is told apart by its `E   ` line.
    const unclassed = failed.length === 0 || failed.some((id) => !id.includes(' '));
    return keyOf(failed, unclassed ? firstCapture(lines, PYTEST_E_LINE) : undefined);
  },
};

/** unittest: `FAIL: test_x (module.Class.test_x)` per failure and `FAILED (failures=1)`. */
const UNITTEST_HEAD = /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/;
const UNITTEST_TALLY = /^FAILED \((?:failures|errors)=\d+/;
const UNITTEST_BLOCK_END = /^(?:={20,}|-{20,})$/;

/**
 * The test as `<module>.py > <Class> > <method>` (the module's packages
 * are where it lives), with the class of the exception its traceback ends on.
 */
function unittestFailure(lines: readonly string[], index: number): FailedTest | undefined {
  const head = UNITTEST_HEAD.exec(lines[index] ?? '');
  if (!head?.[1] || !head[2]) return undefined;
  const dotted = head[2].split('.');
  if (dotted.at(-1) === head[1]) dotted.pop();
  const testClass = dotted.pop();
  const module = dotted.pop();
  let errorClass: string | undefined;
  for (let at = index + 2; at < lines.length && at < index + 400; at += 1) {
    const line = lines[at] ?? '';
    if (UNITTEST_BLOCK_END.test(line)) break;
    errorClass = EXCEPTION.exec(line)?.[1] ?? errorClass;
  }
  return {
    file: module ? `${module}.py` : undefined,
    path: [testClass ?? '', head[1]],
    errorClass,
  };
}

export const unittestRule: SignatureRule = {
  family: 'unittest',
  key({ lines }) {
    if (!hasLine(lines, UNITTEST_TALLY)) return undefined;
    const tests = lines
      .map((_line, index) => unittestFailure(lines, index))
      .filter((test): test is FailedTest => test !== undefined);
    return failedTestsKey(tests);
  },
};

/** The exception line that ends a traceback: `ModuleNotFoundError: No module named 'x'`. */
const EXCEPTION =
  /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Fault))(?::\s?(.*))?$/;
const TRACEBACK = /^Traceback \(most recent call last\):/;
const FRAME = /^\s*File "[^"]*", line \d+/;

/** Python: the traceback's last exception (class and message; the frames are where, not what). */
export const pythonRule: SignatureRule = {
  family: 'python',
  key({ lines }) {
    // A syntax error has no "Traceback" header: the `File "x", line N` frame opens it.
    const start = lines.findIndex((line) => TRACEBACK.test(line) || FRAME.test(line));
    if (start < 0) return undefined;
    const rest = lines.slice(start + 1);
    const found = rest
      .map((line) => EXCEPTION.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .at(-1);
    if (found)
      return keyOf(found[1], found[2] === undefined ? undefined : keepQuotedFileName(found[2]));
    return TRACEBACK.test(lines[start] ?? '') ? keyOf(lastCapture(rest, /^(\S.*)$/)) : undefined;
  },
};

const PIP_ERROR = /^(?:ERROR|error): (.+)$/;
const PIP_MARKS =
  /\bpip\b|No matching distribution|Could not find a version|externally-managed-environment|setup\.py|wheel/;
const PIP_NO_MATCH = /^ERROR: (No matching distribution found for .+)$/;

/** pip: the resolver's "no matching distribution", else the first `ERROR:` line. */
export const pipRule: SignatureRule = {
  family: 'pip',
  key({ lines, commandFamily }) {
    const isPip = commandFamily?.startsWith('pip') || hasLine(lines, PIP_MARKS);
    if (!isPip || !hasLine(lines, PIP_ERROR)) return undefined;
    return keyOf(firstCapture(lines, PIP_NO_MATCH) ?? firstCapture(lines, PIP_ERROR));
  },
};

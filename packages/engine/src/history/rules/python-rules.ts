import { scrubVolatile } from '../scrub-volatile';
import {
  finalPart,
  firstCapture,
  hasLine,
  keyOf,
  lastCapture,
  type SignatureRule,
} from '../signature-rule';
import { errorSummary, fileFailure, inHook } from './outside-test';
import { keepQuotedFileName } from './quoted-file-name';
import { type FailedTest, failedTestsKey, testFileName } from './test-identity';

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

/** `___ ERROR at setup of TestStore.test_saves ___`: an error outside the test's body. */
const PYTEST_PHASE = /\bERROR at (setup|teardown) of (\S+)/;
/** An `E   ` line that names an exception: what a collection error is. */
const PYTEST_E_CLASS = /^E\s+([A-Za-z_.]*(?:Error|Exception|Exit)\b.*)$/;

/**
 * One line of the short summary: the node id (without its folders: where
 * the test lives is not what failed) and the exception's class; a bare
 * `assert` failed with an AssertionError. An `ERROR` of a test is in its
 * fixture's setup or teardown, not in its body: the key says so.
 */
function pytestFailure(line: string, phases: ReadonlyMap<string, string>): string | undefined {
  const match = PYTEST_FAILED.exec(withoutTestFolder(line));
  if (!match?.[1]) return undefined;
  const word = match[2] ?? '';
  let errorClass = word === 'assert' ? 'AssertionError' : PYTEST_CLASS.exec(word)?.[1];
  if (line.startsWith('ERROR') && match[1].includes('::')) {
    const phase = phases.get(match[1].split('::').slice(1).join('.')) ?? 'setup';
    errorClass = `${errorClass ?? 'error'} in ${phase}`;
  }
  // The node id keeps its numbers: `test_adds[2-2-5]` names the parameters that failed.
  return scrubVolatile(errorClass ? `${match[1]} ${errorClass}` : match[1], { keepNumbers: true });
}

function pytestPhases(lines: readonly string[]): Map<string, string> {
  const phases = new Map<string, string>();
  for (const line of lines) {
    const match = PYTEST_PHASE.exec(line);
    if (match?.[1] && match[2] && !phases.has(match[2])) phases.set(match[2], match[1]);
  }
  return phases;
}

export const pytestRule: SignatureRule = {
  family: 'pytest',
  key({ lines }) {
    if (!hasLine(lines, PYTEST_SUMMARY) && !lines.some(isPytestTally)) return undefined;
    const phases = pytestPhases(lines);
    const failed = [
      ...new Set(
        lines
          .map((line) => pytestFailure(line, phases))
          .filter((id): id is string => id !== undefined),
      ),
    ]
      .sort()
      .slice(0, 5)
      .map(finalPart);
    // A failure without a class (a collection error) is told apart by its exception's `E   ` line.
    const unclassed = failed.length === 0 || failed.some((id) => !id.includes(' '));
    const eLine = () => firstCapture(lines, PYTEST_E_CLASS) ?? firstCapture(lines, PYTEST_E_LINE);
    return keyOf(failed, unclassed ? eLine() : undefined);
  },
};

/** unittest: `FAIL: test_x (module.Class.test_x)` per failure and `FAILED (failures=1)`. */
/** A subtest adds its parameters: `FAIL: test_adds (test_add.TestAdd.test_adds) (n=2)`. */
const UNITTEST_HEAD = /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)(?: (\(.*\)|\[.*\]))?/;
const UNITTEST_TALLY = /^FAILED \((?:failures|errors)=\d+/;
const UNITTEST_BLOCK_END = /^(?:={20,}|-{20,})$/;

/** A traceback frame: its file and function (`File "/x/tests/test_cart.py", line 5, in test_x`). */
const FRAME_IN = /^\s*File "([^"]*)", line \d+, in (\w+)$/;

/** A traceback frame in a fixture method: `File "…", line 9, in setUp`. */
const UNITTEST_FIXTURE_FRAME =
  /^\s*File "[^"]*", line \d+, in (setUp|tearDown|setUpClass|tearDownClass|asyncSetUp|asyncTearDown|setUpModule|tearDownModule)$/;

/**
 * The test as `<module>.py > <Class> > <method>` (the module's packages
 * are where it lives), with the class of the exception its traceback ends
 * on and the fixture method it was raised in (`in setUp`). A module that
 * failed to import is the loader's `_FailedTest`: the module as a whole.
 */
function unittestFailure(lines: readonly string[], index: number): FailedTest | undefined {
  const head = UNITTEST_HEAD.exec(lines[index] ?? '');
  if (!head?.[1] || !head[2]) return undefined;
  const dotted = head[2].split('.');
  if (dotted.at(-1) === head[1]) dotted.pop();
  const testClass = dotted.pop();
  const module = dotted.pop();
  let exception: RegExpExecArray | null = null;
  let fixture: string | undefined;
  let ownFile: string | undefined;
  for (let at = index + 2; at < lines.length && at < index + 400; at += 1) {
    const line = lines[at] ?? '';
    if (UNITTEST_BLOCK_END.test(line)) break;
    exception = EXCEPTION.exec(line) ?? exception;
    fixture = UNITTEST_FIXTURE_FRAME.exec(line)?.[1] ?? fixture;
    const frame = FRAME_IN.exec(line);
    if (!ownFile && frame?.[2] === head[1]) ownFile = frame[1];
  }
  if (testClass === '_FailedTest') {
    const error = exception ? `${exception[1]}: ${exception[2] ?? ''}` : undefined;
    return fileFailure(`${head[1]}.py`, error === undefined ? undefined : errorSummary(error));
  }
  // A file run as a script (`python tests/test_cart.py`) is `__main__`: its file is the test's frame.
  const file = module === '__main__' ? testFileName(ownFile) : module ? `${module}.py` : undefined;
  return {
    file,
    path: [testClass ?? '', head[3] ? `${head[1]} ${head[3]}` : head[1]],
    errorClass: inHook(exception?.[1], fixture),
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

import {
  allCaptures,
  firstCapture,
  hasLine,
  keyOf,
  lastCapture,
  type SignatureRule,
} from '../signature-rule';
import { keepQuotedFileName } from './quoted-file-name';

/** pytest: `FAILED tests/test_a.py::test_x - AssertionError: ...` in the short summary. */
const PYTEST_SUMMARY = /^=+ short test summary info =+$/;
const isPytestTally = (line: string) =>
  line.startsWith('=') && line.endsWith('=') && /\b\d+ (?:failed|errors?)\b/.test(line);
const PYTEST_FAILED = /^(?:FAILED|ERROR) (\S+)(?: - ([A-Za-z_.]*(?:Error|Exception|Exit)\b))?/;
const PYTEST_E_LINE = /^E\s+(\S.*)$/;

const TEST_FOLDER = /^((?:FAILED|ERROR) )[^\s:]*\//;
const withoutTestFolder = (line: string) => line.replace(TEST_FOLDER, '$1');

export const pytestRule: SignatureRule = {
  family: 'pytest',
  key({ lines }) {
    if (!hasLine(lines, PYTEST_SUMMARY) && !lines.some(isPytestTally)) return undefined;
    // A node id's folder is where the test lives, not what failed: `tests/test_a.py::x` is `test_a.py::x`.
    const failed = allCaptures(lines.map(withoutTestFolder), PYTEST_FAILED, 5);
    return keyOf(failed, failed.length > 0 ? undefined : firstCapture(lines, PYTEST_E_LINE));
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

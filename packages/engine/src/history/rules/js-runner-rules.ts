import { hasLine, type SignatureRule } from '../signature-rule';
import {
  fileFailure,
  firstErrorSummary,
  inHook,
  isFilePath,
  nodeHookInStack,
  withAfterTest,
} from './outside-test';
import {
  type FailedTest,
  failedTestsKey,
  firstErrorClass,
  firstOwnFrameFile,
  jsErrorClass,
  leafTests,
} from './test-identity';

/**
 * ava: `✘ [fail]: title` (ava may add the error's message: `waits Test
 * timeout exceeded`), then a block per failure (title, location, assertion
 * or thrown error); `Uncaught exception in file` for a file that threw
 * outside its tests or did not load.
 */
const AVA_FAIL = /^\s*\u2718 \[fail\]: (.+)$/;
const AVA_TALLY =
  /^\s*\d+ (?:tests? failed|known failures? failed|uncaught exceptions?|unhandled rejections?)\b/;
const AVA_LOCATION = /^\s*(?:\u203a )?(\S+\.[cm]?[jt]sx?):(\d+)(?::\d+)?$/;
const AVA_RULE = /^\s*\u2500\s*$/;
const AVA_UNCAUGHT = /^\s*(?:Uncaught exception|Unhandled rejection) in (\S+)$/;

/** The class of one ava failure: the error thrown, else the assertion on the failing line (`t.is`). */
function avaFailure(lines: readonly string[], start: number, end: number): FailedTest {
  let file: string | undefined;
  let failingLine: string | undefined;
  let errorClass: string | undefined;
  for (let index = start; index < end; index += 1) {
    const line = lines[index] ?? '';
    const location = AVA_LOCATION.exec(line);
    if (location && !file) [file, failingLine] = [location[1], location[2]];
    if (!errorClass && /Error thrown in test/.test(line))
      errorClass = firstErrorClass(lines, index + 1, () => false, jsErrorClass);
    if (!errorClass && failingLine && line.trimStart().startsWith(`${failingLine}: `))
      errorClass = /\bt\.(\w+)\(/.exec(line)?.[0]?.slice(0, -1);
  }
  // No location and no assertion: what ava itself failed the test for (a timeout, no assertions).
  errorClass ??= file ? undefined : firstErrorClass(lines.slice(start, end), 0, () => false);
  return {
    file: file ?? firstOwnFrameFile(lines, start, end),
    path: [],
    errorClass: errorClass ?? 'assertion',
  };
}

/** The title a `[fail]` line names: the longest detail heading it starts with, else all of it. */
function avaTitle(text: string, headings: ReadonlySet<string>): string {
  if (headings.has(text)) return text;
  let title = text;
  for (const heading of headings)
    if (text.startsWith(`${heading} `) && (title === text || heading.length > title.length))
      title = heading;
  return title;
}

/** Files that threw outside their tests or did not load: keyed by the file and the error. */
function avaUncaught(lines: readonly string[]): FailedTest[] {
  const failures: FailedTest[] = [];
  lines.forEach((line, index) => {
    const file = AVA_UNCAUGHT.exec(line)?.[1];
    if (!file) return;
    let end = lines.findIndex((next, at) => at > index && AVA_RULE.test(next));
    if (end < 0) end = lines.length;
    failures.push(fileFailure(file, firstErrorSummary(lines, index + 1, end)));
  });
  return failures;
}

export const avaRule: SignatureRule = {
  family: 'ava',
  key({ lines }) {
    if (!hasLine(lines, AVA_TALLY)) return undefined;
    // The details follow the list, after a `─` rule: each starts with the title alone on a line.
    const details = lines.findIndex((line) => AVA_RULE.test(line));
    const headings = new Set(
      lines
        .slice(details + 1)
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    );
    const titles = lines
      .map((line) => AVA_FAIL.exec(line)?.[1])
      .filter((text): text is string => text !== undefined)
      .map((text) => avaTitle(text.trim(), headings));
    const starts = titles.map((title) =>
      lines.findIndex((line, index) => index > details && line.trim() === title),
    );
    const tests = titles.map((title, i) => {
      const start = starts[i] ?? -1;
      const later = starts.filter((s) => s > start);
      const end = later.length > 0 ? Math.min(...later) : lines.length;
      const failure = start < 0 ? { path: [] } : avaFailure(lines, start + 1, end);
      return { ...failure, path: title.split(' \u203a ') };
    });
    return failedTestsKey([...tests, ...avaUncaught(lines)]);
  },
};

/** node:test's spec reporter: `▶ suite`, `✖ name (1.2ms)` with its error indented under it. */
const SPEC_SUITE = /^(\s*)\u25b6 (.+)$/;
const SPEC_FAIL = /^(\s*)\u2716 (.+)$/;
/** `ℹ fail 1`, or `ℹ cancelled 1` when the only failure is a test that timed out. */
const SPEC_TALLY = /^\u2139 (?:fail|cancelled) [1-9]/;
const SPEC_FAILING_SECTION = /^\u2716 failing tests:/;
const SPEC_TEST_AT = /^test at (\S+)$/;
const indentOf = (text: string) => text.length - text.trimStart().length;

/** The files `✖ failing tests:` gives each test (`test at file:line:col` above its name). */
function specFiles(lines: readonly string[], from: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let index = from; index < lines.length - 1; index += 1) {
    const at = SPEC_TEST_AT.exec(lines[index] ?? '');
    const name = SPEC_FAIL.exec(lines[index + 1] ?? '')?.[2];
    if (at?.[1] && name) files.set(name, at[1]);
  }
  return files;
}

/** One failed test of the spec reporter: a test, or a file that failed as a whole. */
export function specFailure(
  lines: readonly string[],
  index: number,
  end: number,
  where: { suites: string[]; files: Map<string, string> },
): FailedTest {
  const name = SPEC_FAIL.exec(lines[index] ?? '')?.[2] ?? '';
  const plain = name.replace(/ \([\d.]+m?s\)$/, '');
  // A file that failed to load is reported as a test named by its path; its error was printed above.
  if (isFilePath(plain)) return fileFailure(plain, firstErrorSummary(lines, 0, index));
  const stackEnd = Math.min(end, index + 40);
  return {
    file: where.files.get(name) ?? firstOwnFrameFile(lines, index + 1, stackEnd),
    path: [...where.suites, plain],
    errorClass: inHook(
      jsErrorClass(lines[index + 1] ?? ''),
      nodeHookInStack(lines, index + 1, stackEnd),
    ),
  };
}

export const nodeTestSpecRule: SignatureRule = {
  family: 'node-test',
  key({ lines }) {
    if (!hasLine(lines, SPEC_TALLY)) return undefined;
    let end = lines.findIndex((line) => SPEC_FAILING_SECTION.test(line));
    const files = specFiles(lines, end < 0 ? lines.length : end);
    if (end < 0) end = lines.length;
    const suites: { indent: number; name: string }[] = [];
    const tests: FailedTest[] = [];
    for (let index = 0; index < end; index += 1) {
      const line = lines[index] ?? '';
      const suite = SPEC_SUITE.exec(line);
      const fail = SPEC_FAIL.exec(line);
      const mark = suite ?? fail;
      if (!mark) continue;
      const indent = indentOf(line);
      while ((suites.at(-1)?.indent ?? -1) >= indent) suites.pop();
      if (suite) suites.push({ indent, name: suite[2] ?? '' });
      // A failed test has its error under it; a failed suite's line closes it, with nothing under.
      const next = lines[index + 1] ?? '';
      if (!fail || indentOf(next) <= indent || next.trim() === '') continue;
      tests.push(specFailure(lines, index, end, { suites: suites.map((s) => s.name), files }));
    }
    return failedTestsKey(withAfterTest(leafTests(tests), lines));
  },
};

/** Playwright: `  1) [chromium] › tests/a.spec.ts:3:5 › suite › name ───` and its error below. */
const PLAYWRIGHT_FAIL = /^\s+\d+\) \[([\w .-]+)\] \u203a (\S+?):\d+:\d+ \u203a (.+?)(?: \u2500+)?$/;
const PLAYWRIGHT_TALLY = /^\s+\d+ failed$/;

export const playwrightRule: SignatureRule = {
  family: 'playwright',
  key({ lines }) {
    if (!hasLine(lines, PLAYWRIGHT_TALLY)) return undefined;
    const tests: FailedTest[] = [];
    lines.forEach((line, index) => {
      const fail = PLAYWRIGHT_FAIL.exec(line);
      if (!fail) return;
      tests.push({
        file: fail[2],
        path: [`[${fail[1]}]`, ...(fail[3] ?? '').split(' \u203a ')],
        errorClass: firstErrorClass(lines, index + 1, (next) => PLAYWRIGHT_FAIL.test(next)),
      });
    });
    return failedTestsKey(tests);
  },
};

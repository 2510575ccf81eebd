import { hasLine, type SignatureRule } from '../signature-rule';
import {
  type FailedTest,
  failedTestsKey,
  firstOwnFrameFile,
  jsErrorClass,
  testFileName,
} from './test-identity';

/**
 * A JUnit XML report printed to the terminal (vitest `--reporter=junit`,
 * node `--test-reporter=junit`, any runner whose JUnit reporter has no
 * output file): each `<testcase>` with a `<failure>` or `<error>` inside
 * is a failed test, named by its `name` (vitest writes `suite > test`),
 * in the file its `classname` or `file` names, else the first frame of
 * its own code; its class is the failure's `type` when that is an error
 * class, else the error its text names (the cause's, when node wraps it).
 */

const TESTCASE = /<testcase\b([^>]*?)(\/?)>/;
const FAILURE = /<(?:failure|error)\b([^>]*)>/;
const CASE_END = /<\/testcase>/;
const ERROR_TYPE = /^(?:\w*(?:Error|Exception)|ERR_[A-Z0-9_]+)$/;
const CAUSE = /\bcause: (\w*Error)\b/;
/** Lines read under one test case for its failure's text. */
const CASE_LINES = 400;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#\d{1,6});/g, (_, name: string) =>
    name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : (ENTITIES[name] ?? ''),
  );
}

/** The attributes read, each with its pattern, compiled once. */
const ATTRIBUTES = {
  name: /(?:^|\s)name="([^"]*)"/,
  classname: /(?:^|\s)classname="([^"]*)"/,
  file: /(?:^|\s)file="([^"]*)"/,
  type: /(?:^|\s)type="([^"]*)"/,
} as const;

function attribute(attributes: string, name: keyof typeof ATTRIBUTES): string | undefined {
  const found = ATTRIBUTES[name].exec(attributes)?.[1];
  return found === undefined ? undefined : decodeXml(found);
}

const looksLikeFile = (name: string | undefined) =>
  name !== undefined && /\.[cm]?[jt]sx?$|\.py$/.test(name);

/** The class of a failure: its `type` when an error class, else the cause's or the text's error. */
function failureClass(type: string | undefined, body: readonly string[]): string {
  if (type && ERROR_TYPE.test(type)) return type;
  for (const line of body) {
    const cause = CAUSE.exec(line)?.[1];
    if (cause) return cause;
  }
  for (const line of body) {
    const found = jsErrorClass(decodeXml(line));
    if (found) return found;
  }
  return type ?? 'failure';
}

/** The failed test a `<testcase>` at `index` holds, if it failed. */
function failedCase(lines: readonly string[], index: number): FailedTest | undefined {
  const open = TESTCASE.exec(lines[index] ?? '');
  if (!open?.[1] || open[2] === '/') return undefined;
  const attributes = open[1];
  const name = attribute(attributes, 'name');
  if (!name) return undefined;
  let failure: RegExpExecArray | null = null;
  let at = index;
  const end = Math.min(lines.length, index + CASE_LINES);
  for (at = index; at < end; at += 1) {
    const line = lines[at] ?? '';
    if (at > index && (CASE_END.test(line) || TESTCASE.test(line))) break;
    failure ??= FAILURE.exec(line);
  }
  if (!failure) return undefined;
  const body = lines.slice(index + 1, at).map(decodeXml);
  const classname = attribute(attributes, 'classname');
  const file = attribute(attributes, 'file');
  return {
    file: testFileName(
      looksLikeFile(classname) ? classname : (file ?? firstOwnFrameFile(body, 0, body.length)),
    ),
    path: name.split(' > '),
    errorClass: failureClass(attribute(failure[1] ?? '', 'type'), body),
  };
}

export const junitXmlRule: SignatureRule = {
  family: 'junit-xml',
  key({ lines }) {
    if (!hasLine(lines, /<testsuites?\b/)) return undefined;
    const tests: FailedTest[] = [];
    lines.forEach((line, index) => {
      if (!line.includes('<testcase')) return;
      const test = failedCase(lines, index);
      if (test) tests.push(test);
    });
    return failedTestsKey(tests);
  },
};

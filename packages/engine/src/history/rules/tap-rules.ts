import type { RuleInput, SignatureRule } from '../signature-rule';
import { type FailedTest, failedTestsKey, leafTests, testFileName } from './test-identity';

/**
 * TAP, as node's test runner (`--test-reporter=tap`, its default in a pipe
 * on Node 20) and node-tap print it: `# Subtest: name` opens a test, `not
 * ok N - name` at the same indentation closes it, and a YAML block under
 * a result says where and why. In node-tap a `not ok` without a subtest
 * header is an assertion inside the test above it.
 */

const SUBTEST = /^(\s*)# Subtest: (.+)$/;
const RESULT = /^(\s*)(not ok|ok) \d+(?: - (.*?))?(?: # .*)?$/;
const YAML_FIELD = /^\s+(name|type|location|fileName|failureType): '?([^']*?)'?$/;
const YAML_END = /^\s*\.\.\.$/;

interface TapFailure {
  path: string[];
  /** The assertion point's description (node-tap), when the failure is one. */
  assertion?: string;
  fields: Record<string, string>;
}

const indentOf = (text: string) => text.length - text.trimStart().length;

/** The YAML fields Cairn reads, from the block under the result at `index`. */
function yamlFields(lines: readonly string[], index: number): Record<string, string> {
  const fields: Record<string, string> = {};
  const indent = indentOf(lines[index] ?? '');
  if ((lines[index + 1] ?? '').trim() !== '---') return fields;
  for (let at = index + 2; at < lines.length && at < index + 200; at += 1) {
    const line = lines[at] ?? '';
    if (YAML_END.test(line) || indentOf(line) <= indent) break;
    const field = YAML_FIELD.exec(line);
    if (field?.[1] && field[2] && !(field[1] in fields)) fields[field[1]] = field[2];
  }
  return fields;
}

/** Every `not ok` with the subtests it sits in. */
function tapFailures(lines: readonly string[]): TapFailure[] {
  const open: { indent: number; name: string }[] = [];
  const failures: TapFailure[] = [];
  lines.forEach((line, index) => {
    const subtest = SUBTEST.exec(line);
    const result = subtest ? null : RESULT.exec(line);
    if (!subtest && !result) return;
    const indent = indentOf(line);
    while ((open.at(-1)?.indent ?? -1) > indent) open.pop();
    if (subtest) {
      open.push({ indent, name: subtest[2] ?? '' });
      return;
    }
    const name = result?.[3] ?? '';
    const closes = open.at(-1)?.indent === indent;
    const path = open.map((test) => test.name);
    if (closes) open.pop();
    if (result?.[2] !== 'not ok') return;
    const fields = yamlFields(lines, index);
    if (fields.failureType === 'subtestsFailed') return;
    failures.push(closes ? { path, fields } : { path, assertion: name, fields });
  });
  return failures;
}

const looksLikeFile = (name: string) => /\.[cm]?[jt]sx?$/.test(name);

/** One failed test per path: the assertion inside it, its error's name, its file. */
function failedTests(failures: readonly TapFailure[]): FailedTest[] {
  const byPath = new Map<string, FailedTest>();
  for (const failure of failures) {
    const [first, ...rest] = failure.path;
    const fromPath = first !== undefined && looksLikeFile(first);
    const file = fromPath ? first : (failure.fields.location ?? failure.fields.fileName);
    const path = fromPath ? rest : failure.path;
    const key = path.join('\u0000');
    const known = byPath.get(key);
    // node:test also writes `type: 'suite'` / `'test'`: kinds of test, not of error.
    const type = /^(?:suite|test)$/.test(failure.fields.type ?? '')
      ? undefined
      : failure.fields.type;
    const errorClass = type ?? failure.fields.name ?? failure.assertion;
    if (known) {
      known.errorClass ??= errorClass;
      known.file ??= file;
      continue;
    }
    byPath.set(key, { file: testFileName(file), path, errorClass });
  }
  return leafTests([...byPath.values()]).filter((test) => test.path.length > 0);
}

const TAP_VERSION = /^TAP version \d+$/;
const NODE_TEST_FIELDS = /^\s+(?:failureType|duration_ms|location): /;

function tapKey({ lines }: RuleInput, nodeTest: boolean): string[] | undefined {
  if (!lines.some((line) => TAP_VERSION.test(line))) return undefined;
  if (lines.some((line) => NODE_TEST_FIELDS.test(line)) !== nodeTest) return undefined;
  return failedTestsKey(failedTests(tapFailures(lines)));
}

/** node's test runner with the TAP reporter (its YAML has `failureType`, `location`, `duration_ms`). */
export const nodeTestTapRule: SignatureRule = {
  family: 'node-test',
  key: (input) => tapKey(input, true),
};

/** node-tap and other TAP producers. */
export const tapRule: SignatureRule = {
  family: 'tap',
  key: (input) => tapKey(input, false),
};

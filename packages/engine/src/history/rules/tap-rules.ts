import type { RuleInput, SignatureRule } from '../signature-rule';
import { fileFailure, firstErrorSummary, inHook, NODE_HOOK, withAfterTest } from './outside-test';
import { type FailedTest, failedTestsKey, leafTests, testFileName } from './test-identity';

/**
 * TAP, as node's test runner (`--test-reporter=tap`, its default in a pipe
 * on Node 20) and node-tap print it: `# Subtest: name` opens a test, `not
 * ok N - name` at the same indentation closes it, and a YAML block under
 * a result says where and why. In node-tap a `not ok` without a subtest
 * header is an assertion inside the test above it. ava's `--tap` prints
 * each test as one flat `not ok N - title` (`file › title` when several
 * files ran), its YAML naming the assertion (`assertion: t.is()`) or the
 * error thrown (`name: TypeError`), and no file: the file is the one the
 * command named, when it named one.
 */

const SUBTEST = /^(\s*)# Subtest: (.+)$/;
const RESULT = /^(\s*)(not ok|ok) \d+(?: - (.*?))?(?: # .*)?$/;
const YAML_FIELD = /^\s+(name|type|location|fileName|failureType|assertion): '?([^']*?)'?$/;
const YAML_END = /^\s*\.\.\.$/;
const YAML_LINES = 20_000;

interface TapFailure {
  /** The line of the `not ok`. */
  index: number;
  path: string[];
  /** The assertion point's description (node-tap), when the failure is one. */
  assertion?: string;
  fields: Record<string, string>;
}

const indentOf = (text: string) => text.length - text.trimStart().length;

/** `error: |-`, `stack: |`, `at: >-`: a block of text follows, indented under its key. */
const BLOCK_SCALAR = /^\s*[\w-]+: [|>][+-]?$/;

/**
 * The YAML fields Cairn reads, from the block under the result at `index`.
 * The text of block scalars (a diff, a stack) is skipped: a diff can show
 * `name: …` or `...` lines of the values compared.
 */
function yamlFields(lines: readonly string[], index: number): Record<string, string> {
  const fields: Record<string, string> = {};
  const indent = indentOf(lines[index] ?? '');
  const open = lines[index + 1] ?? '';
  if (open.trim() !== '---') return fields;
  const blockIndent = indentOf(open);
  let scalarIndent = -1;
  // A long diff under `error: |-` can run for thousands of lines before the fields that follow it.
  for (let at = index + 2; at < lines.length && at < index + YAML_LINES; at += 1) {
    const line = lines[at] ?? '';
    if (line.trim() === '') continue;
    const own = indentOf(line);
    if (own <= indent || (own <= blockIndent && YAML_END.test(line))) break;
    if (scalarIndent >= 0 && own > scalarIndent) continue;
    scalarIndent = BLOCK_SCALAR.test(line) ? own : -1;
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
    failures.push(closes ? { index, path, fields } : { index, path, assertion: name, fields });
  });
  return failures;
}

const looksLikeFile = (name: string) => /\.[cm]?[jt]sx?$/.test(name);

/** node's test runner's `failureType` for a test that ran too long or whose hook threw. */
function nodeFailureClass(failure: TapFailure, errorClass: string | undefined) {
  const kind = failure.fields.failureType;
  if (kind === 'testTimeoutFailure') return 'timeout';
  return kind === 'hookFailed' ? inHook(errorClass, NODE_HOOK) : errorClass;
}

/** One failed test per path: the assertion inside it, its error's name, its file. */
function failedTests(lines: readonly string[], failures: readonly TapFailure[]): FailedTest[] {
  const byPath = new Map<string, FailedTest>();
  for (const failure of failures) {
    const [first, ...rest] = failure.path;
    const fromPath = first !== undefined && looksLikeFile(first);
    // A file that failed as a whole (it did not load): its error was printed above, as comments.
    if (fromPath && rest.length === 0) {
      byPath.set(`\u0000${first}`, fileFailure(first, firstErrorSummary(lines, 0, failure.index)));
      continue;
    }
    const file = fromPath ? first : (failure.fields.location ?? failure.fields.fileName);
    const path = fromPath ? rest : failure.path;
    const key = path.join('\u0000');
    const known = byPath.get(key);
    // node:test also writes `type: 'suite'` / `'test'`: kinds of test, not of error.
    const type = /^(?:suite|test)$/.test(failure.fields.type ?? '')
      ? undefined
      : failure.fields.type;
    const errorClass = nodeFailureClass(failure, type ?? failure.fields.name ?? failure.assertion);
    if (known) {
      known.errorClass ??= errorClass;
      known.file ??= file;
      continue;
    }
    byPath.set(key, { file: testFileName(file), path, errorClass });
  }
  return leafTests([...byPath.values()]).filter((test) => test.path.length > 0);
}

const AVA_ASSERTION = /^t\.\w+/;

/**
 * ava's flat results: each `not ok` outside any subtest is a test (read as
 * an assertion point by `tapFailures`, its title in `assertion`); its class
 * is the ava assertion of its YAML, else the error thrown.
 */
function avaTests(failures: readonly TapFailure[], file: string | undefined): FailedTest[] {
  return failures
    .filter((failure) => failure.path.length === 0 && failure.assertion)
    .map((failure) => ({
      file,
      path: failure.assertion!.split(' \u203a '),
      errorClass:
        AVA_ASSERTION.exec(failure.fields.assertion ?? '')?.[0] ??
        failure.fields.name ??
        'assertion',
    }));
}

const AVA_ASSERTION_FIELD = /^\s+assertion: '?t\.\w+/;

/** Whether the TAP is ava's: the command ran ava, or a result's YAML names an ava assertion. */
const isAva = (input: RuleInput) =>
  input.commandFamily?.split('+').includes('ava') === true ||
  input.lines.some((line) => AVA_ASSERTION_FIELD.test(line));

const TAP_VERSION = /^TAP version \d+$/;
const NODE_TEST_FIELDS = /^\s+(?:failureType|duration_ms|location): /;

type TapProducer = 'node-test' | 'ava' | 'other';

function tapKey(input: RuleInput, producer: TapProducer): string[] | undefined {
  const { lines } = input;
  if (!lines.some((line) => TAP_VERSION.test(line))) return undefined;
  const nodeTest = lines.some((line) => NODE_TEST_FIELDS.test(line));
  if (nodeTest !== (producer === 'node-test')) return undefined;
  if (!nodeTest && isAva(input) !== (producer === 'ava')) return undefined;
  const failures = tapFailures(lines);
  if (producer === 'ava') return failedTestsKey(avaTests(failures, input.commandFile));
  return failedTestsKey(withAfterTest(failedTests(lines, failures), lines));
}

/** node's test runner with the TAP reporter (its YAML has `failureType`, `location`, `duration_ms`). */
export const nodeTestTapRule: SignatureRule = {
  family: 'node-test',
  key: (input) => tapKey(input, 'node-test'),
};

/** ava's `--tap` reporter: the same family and key as its default reporter, with the command's file. */
export const avaTapRule: SignatureRule = {
  family: 'ava',
  key: (input) => tapKey(input, 'ava'),
};

/** node-tap and other TAP producers. */
export const tapRule: SignatureRule = {
  family: 'tap',
  key: (input) => tapKey(input, 'other'),
};

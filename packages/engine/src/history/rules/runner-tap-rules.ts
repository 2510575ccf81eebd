import { hasLine, type SignatureRule } from '../signature-rule';
import {
  type FailedTest,
  failedTestsKey,
  firstErrorClass,
  firstOwnFrameFile,
} from './test-identity';

/*
 * TAP as two JavaScript runners print it, each keyed like the runner's
 * default reporter where the output allows (tap-rules.ts reads node's
 * test runner, node-tap and ava).
 */

/**
 * mocha's `--reporter tap`: `not ok N <suites and title>` (no dash, the
 * suites joined to the title by spaces, so they cannot be told apart),
 * the error and its stack indented under it, `# tests N` and the plan
 * `1..N` at the end.
 */
const MOCHA_RESULT = /^not ok \d+ (?!- )(.+)$/;
const MOCHA_NEXT = /^(?:not ok|ok) \d+ |^# /;
const MOCHA_TALLY = /^# (?:tests|fail) \d+$/;

export const mochaTapRule: SignatureRule = {
  family: 'mocha',
  key({ lines }) {
    if (!hasLine(lines, MOCHA_TALLY) || !hasLine(lines, /^1\.\.\d+$/)) return undefined;
    const tests: FailedTest[] = [];
    lines.forEach((line, index) => {
      const title = MOCHA_RESULT.exec(line)?.[1];
      if (!title) return;
      let end = index + 1;
      while (end < lines.length && !MOCHA_NEXT.test(lines[end] ?? '')) end += 1;
      tests.push({
        file: firstOwnFrameFile(lines, index + 1, end),
        path: [title.trim()],
        errorClass: firstErrorClass(lines.slice(index + 1, end), 0, () => false) ?? 'assertion',
      });
    });
    return failedTestsKey(tests);
  },
};

/**
 * vitest's `--reporter=tap` and `tap-flat`: each result ends in `# time=…`;
 * `tap` nests a file's suites in braces (`not ok 1 - file # time=… {`),
 * `tap-flat` writes the path in the title (`file > suite > test`); the
 * YAML under a failed test names the error (`name: "AssertionError"`).
 */
const VITEST_RESULT = /^(\s*)(not ok|ok) \d+ - (.+?) # time=[\d.]+m?s( \{)?$/;
const CLOSE = /^\s*\}\s*$/;
const YAML_NAME = /^\s+name: "?([\w.]+)"?$/;
const YAML_END = /^\s*\.\.\.$/;
const looksLikeFile = (name: string) => /\.[cm]?[jt]sx?$/.test(name);

function vitestError(lines: readonly string[], start: number): string {
  for (let at = start; at < Math.min(lines.length, start + 40); at += 1) {
    const line = lines[at] ?? '';
    if (YAML_END.test(line)) break;
    const name = YAML_NAME.exec(line)?.[1];
    if (name) return name;
  }
  return 'assertion';
}

export const vitestTapRule: SignatureRule = {
  family: 'vitest',
  key({ lines }) {
    // node-tap also times its results, and opens each subtest with `# Subtest:`; vitest never.
    if (!hasLine(lines, /^TAP version \d+$/) || hasLine(lines, /^\s*# Subtest: /)) return undefined;
    const open: string[] = [];
    const tests: FailedTest[] = [];
    let results = 0;
    lines.forEach((line, index) => {
      if (CLOSE.test(line)) {
        open.pop();
        return;
      }
      const result = VITEST_RESULT.exec(line);
      if (!result) return;
      results += 1;
      const title = result[3] ?? '';
      if (result[4]) {
        open.push(title);
        return;
      }
      if (result[2] !== 'not ok') return;
      const [first, ...rest] = [...open, ...title.split(' > ')];
      const file = first !== undefined && looksLikeFile(first) ? first : undefined;
      const path = file ? rest : [first ?? '', ...rest];
      tests.push({ file, path, errorClass: vitestError(lines, index + 1) });
    });
    return results > 0 ? failedTestsKey(tests) : undefined;
  },
};

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
/** STYLE.md: functions under 60 lines, 120 at the very most. */
const SOFT_LIMIT = 60;
const HARD_LIMIT = 120;

/** A function allowed over the soft limit, and why it reads better long. */
interface LongFunction {
  file: string;
  name: string;
  why: string;
}

/** At most ten functions may stay over the soft limit, each with its reason. */
const MAX_ALLOWED = 10;
const ALLOWED_LONG: readonly LongFunction[] = [];

interface FunctionSpan {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** Tracked TypeScript sources, tests, fixtures and declarations left out. */
function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '*.ts', '*.mts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(
      (file) =>
        file !== '' &&
        !/\.test\.ts$|\.d\.ts$|fixture|\/fixtures\//.test(file) &&
        !file.startsWith('node_modules/'),
    );
}

/** Every function of a file over the soft limit, with its length in lines. */
function longFunctions(file: string): FunctionSpan[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > SOFT_LIMIT) {
        const name = 'name' in node && node.name ? node.name.getText() : '(anonymous)';
        found.push({ file, name, line: first + 1, lines: last - first + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const describeSpan = (span: FunctionSpan) =>
  `${span.file}:${span.line} ${span.name} (${span.lines} lines)`;
const isAllowed = (span: FunctionSpan) =>
  ALLOWED_LONG.some((allowed) => allowed.file === span.file && allowed.name === span.name);

describe('code shape', () => {
  // Parses every source file once: seconds on a loaded machine.
  let spans: FunctionSpan[] | undefined;
  const allLong = () => {
    if (!spans) {
      const files = sourceFiles();
      expect(files.length).toBeGreaterThan(300);
      spans = files.flatMap(longFunctions);
    }
    return spans;
  };

  it(`has no non-test function over ${HARD_LIMIT} lines`, () => {
    const tooLong = allLong().filter((span) => span.lines > HARD_LIMIT);
    expect(tooLong.map(describeSpan)).toEqual([]);
  }, 120_000);

  it(`has no non-test function over ${SOFT_LIMIT} lines but the allowed ones`, () => {
    const unexplained = allLong().filter((span) => !isAllowed(span));
    // Split it by responsibility (STYLE.md), or allow it below with the reason it reads better long.
    expect(unexplained.map(describeSpan)).toEqual([]);
  }, 120_000);

  it(`allows at most ${MAX_ALLOWED} long functions, each still long and with a reason`, () => {
    expect(ALLOWED_LONG.length).toBeLessThanOrEqual(MAX_ALLOWED);
    for (const allowed of ALLOWED_LONG) expect(allowed.why.trim(), allowed.name).not.toBe('');
    const stale = ALLOWED_LONG.filter(
      (allowed) =>
        !allLong().some((span) => span.file === allowed.file && span.name === allowed.name),
    );
    // A function that is short now leaves the list.
    expect(stale.map((allowed) => `${allowed.file} ${allowed.name}`)).toEqual([]);
  }, 120_000);
});

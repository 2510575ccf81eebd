import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';
import { isLowInformation } from './signature-information';

/*
 * Linters as they print by default, captured with ESLint 9 (stylish) and
 * Biome 2: the same errors in another place are one failure, another rule
 * broken is another.
 */

const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });

const eslint = (file: string, line: number, errors: string[], warnings = 0) =>
  [
    '',
    file,
    ...errors.map((error, i) => `  ${line + i}:7  error  ${error}`),
    ...Array.from(
      { length: warnings },
      (_, i) => `  ${line + 9 + i}:1  warning  Unexpected any  no-explicit-any`,
    ),
    '',
    `\u2716 ${errors.length + warnings} problems (${errors.length} errors, ${warnings} warnings)`,
    '',
  ].join('\n');

const UNUSED = "'unused' is assigned a value but never used  no-unused-vars";
const DEBUGGER = "Unexpected 'debugger' statement  no-debugger";

const biome = (file: string, diagnostics: [string, '×' | '!'][]) =>
  [
    ...diagnostics.flatMap(([category, mark]) => [
      `${file}${category === 'format' ? '' : ':2:18'} ${category}  FIXABLE  ${'\u2501'.repeat(40)}`,
      '',
      `  ${mark} This is what the rule says.`,
      '  ',
      '    1 │ const x = 1',
      '',
    ]),
    'Checked 2 files in 3ms. No fixes applied.',
    `Found ${diagnostics.filter(([, mark]) => mark === '×').length} errors.`,
  ].join('\n');

describe('ESLint', () => {
  it('keys a run by the rules broken and their messages, wherever they are', () => {
    const here = sig(eslint('/tmp/a/src/cart.js', 1, [UNUSED, DEBUGGER]), 'npx eslint src');
    expect(here.normalized).toBe(
      "eslint: no-debugger Unexpected 'debugger' statement | no-unused-vars 'unused' is assigned a value but never used [shell: eslint]",
    );
    expect(isLowInformation(here)).toBe(false);
    const there = sig(
      eslint('/home/b/pkg/src/cart.js', 40, [DEBUGGER, UNUSED], 2),
      'npx eslint src',
    );
    expect(there.signature).toBe(here.signature);
    expect(sig(eslint('/tmp/a/src/cart.js', 1, [UNUSED]), 'npx eslint src').signature).not.toBe(
      here.signature,
    );
  });

  it('leaves a run of warnings alone', () => {
    expect(sig(eslint('/tmp/a/src/cart.js', 1, [], 2), 'npx eslint src').family).not.toBe('eslint');
  });
});

describe('Biome', () => {
  it('keys a run by the categories of its errors, warnings left out', () => {
    const run = sig(
      biome('src/c.js', [
        ['lint/suspicious/noDebugger', '×'],
        ['lint/correctness/noUnusedVariables', '!'],
        ['format', '×'],
      ]),
      'npx biome check .',
    );
    expect(run.normalized).toBe('biome: format | lint/suspicious/noDebugger [shell: biome]');
    const moved = sig(
      biome('packages/x/src/c.js', [
        ['format', '×'],
        ['lint/suspicious/noDebugger', '×'],
      ]),
      'npx biome check .',
    );
    expect(moved.signature).toBe(run.signature);
    const other = sig(biome('src/c.js', [['lint/style/useConst', '×']]), 'npx biome check .');
    expect(other.signature).not.toBe(run.signature);
  });
});

describe("Python's linters", () => {
  const flake8 = (file: string, line: number, errors: string[]) =>
    errors.map((error, i) => `${file}:${line + i}:1: ${error}`).join('\n');

  it('key flake8 and ruff’s concise output by codes and messages, wherever they are', () => {
    const unused = "F401 'os' imported but unused";
    const blank = 'E302 expected 2 blank lines, found 1';
    const here = sig(flake8('app/a.py', 1, [unused, blank]), 'flake8 app');
    expect(here.normalized).toBe(
      "python-lint: E302 expected <n> blank lines, found <n> | F401 'os' imported but unused [shell: flake8]",
    );
    expect(sig(flake8('/srv/x/app/a.py', 30, [blank, unused]), 'flake8 app').signature).toBe(
      here.signature,
    );
    expect(sig(flake8('app/a.py', 1, [unused]), 'flake8 app').signature).not.toBe(here.signature);
    const ruff = sig(
      'app/a.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.',
      'ruff check',
    );
    expect(ruff.family).toBe('python-lint');
  });

  it('key mypy by each error’s code and message', () => {
    const mypy = (errors: string[]) =>
      [...errors, `Found ${errors.length} errors in 2 files (checked 3 source files)`].join('\n');
    const assignment =
      'app/b.py:4: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]';
    const ret =
      'app/c.py:2: error: Incompatible return value type (got "int", expected "str")  [return-value]';
    const both = sig(mypy([assignment, ret]), 'mypy app');
    expect(both.family).toBe('mypy');
    expect(both.normalized).toContain('return-value Incompatible return value type');
    expect(sig(mypy([ret]), 'mypy app').signature).not.toBe(both.signature);
    expect(sig(mypy([ret, assignment]), 'mypy app').signature).toBe(both.signature);
  });
});

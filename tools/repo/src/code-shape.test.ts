import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
/** STYLE.md: functions under 60 lines, 120 at the very most. */
const HARD_LIMIT = 120;

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

function longFunctions(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > HARD_LIMIT) {
        const name = 'name' in node && node.name ? node.name.getText() : '(anonymous)';
        found.push(`${file}:${first + 1} ${name} (${last - first + 1} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('code shape', () => {
  it(`has no non-test function over ${HARD_LIMIT} lines`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(files.flatMap(longFunctions)).toEqual([]);
    // Parses every source file: seconds on a loaded machine.
  }, 120_000);
});

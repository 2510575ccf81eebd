import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * Each package in its own room: a harness's main entry
 * (`src/index.ts`, what `cairn install` and the hook processes load) reaches
 * core and @cairn/harness-kit only, never the engine; only its in-process
 * plugin entries do. No backend package imports another backend package.
 * No two source files import each other, through any number of others.
 * Type-only imports count: they tie the package's declarations to the engine.
 */

const ROOT = resolve(import.meta.dirname, '../../..');

function folders(group: 'backends' | 'harnesses'): string[] {
  return readdirSync(join(ROOT, group))
    .filter((name) => existsSync(join(ROOT, group, name, 'package.json')))
    .sort();
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, 'index.ts'), base].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
}

/** The packages reached from `entry` through its local imports: `{ package: 'via file' }`. */
function packagesReached(entry: string): Map<string, string> {
  const reached = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiers(file)) {
      if (specifier.startsWith('.')) {
        const local = resolveLocal(file, specifier);
        if (local?.endsWith('.ts')) queue.push(local);
      } else if (!reached.has(specifier)) {
        reached.set(specifier, relative(ROOT, file));
      }
    }
  }
  return reached;
}

/** Tracked TypeScript sources; tests, fixtures and declarations left out. */
function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '*.ts', '*.mts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && !/\.test\.ts$|\.d\.ts$|fixture|\/fixtures\//.test(file))
    .map((file) => join(ROOT, file));
}

/** The import cycles among `files` (their local imports), each as its files, named from the root. */
function importCycles(files: string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(
    files.map((file) => [
      file,
      specifiers(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolveLocal(file, specifier))
        .filter((target): target is string => target !== undefined && known.has(target)),
    ]),
  );
  // Tarjan's strongly connected components: a component of two or more files is a cycle.
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file)!) {
      if (!order.has(target)) connect(target);
      if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, low.get(target)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    for (const member of component) onStack.delete(member);
    const selfImport = edges.get(file)!.includes(file);
    if (component.length > 1 || selfImport) cycles.push(component.map((f) => relative(ROOT, f)));
  };
  for (const file of files) if (!order.has(file)) connect(file);
  return cycles;
}

describe('import boundaries', () => {
  it('no source files import each other (no import cycle among non-test files)', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(importCycles(files)).toEqual([]);
    // Parses every source file: seconds on a loaded machine.
  }, 120_000);

  it('no harness main entry reaches @cairn/engine', () => {
    const harnesses = folders('harnesses');
    expect(harnesses.length).toBeGreaterThanOrEqual(4);
    const offenders = harnesses.flatMap((id) => {
      const reached = packagesReached(join(ROOT, 'harnesses', id, 'src', 'index.ts'));
      return [...reached]
        .filter(
          ([specifier]) => specifier === '@cairn/engine' || specifier.startsWith('@cairn/engine/'),
        )
        .map(([specifier, via]) => `${id}: ${specifier} via ${via}`);
    });
    expect(offenders).toEqual([]);
  });

  it('no backend package imports another backend package', () => {
    const backends = folders('backends');
    expect(backends.length).toBeGreaterThanOrEqual(5);
    const offenders = backends.flatMap((id) => {
      const own = `@cairn/backend-${id}`;
      const sources = readdirSync(join(ROOT, 'backends', id, 'src'), { recursive: true })
        .map(String)
        .filter((file) => /\.m?ts$/.test(file) && !/\.d\.ts$|\.test\.ts$/.test(file))
        .map((file) => join(ROOT, 'backends', id, 'src', file));
      return sources.flatMap((file) =>
        specifiers(file)
          .filter((s) => s.startsWith('@cairn/backend-') && !s.startsWith(own))
          .map((s) => `${relative(ROOT, file)} imports ${s}`),
      );
    });
    expect(offenders).toEqual([]);
  });
});

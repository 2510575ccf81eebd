import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The engine's modules: each folder of packages/engine/src is a module
 * with a curated entry (`index.ts`), and the arrows between them run one
 * way, down this list. A folder imports only folders of an earlier layer,
 * and only through their entries; the files at the top of src/ (the API:
 * openCairn, the memory and working parts) may import any folder's entry.
 * Tests may reach another folder's test helpers (`*.fixture.ts`,
 * `testing/`) directly, and the public entry from anywhere.
 */
const ENGINE_LAYERS: readonly (readonly string[])[] = [
  // Leaves: the transcript store (Tier 3), process plumbing, text helpers, the HTTP helper.
  ['lineage', 'runtime', 'text', 'openai-compatible'],
  // Project storage (SQLite state files on lineage's opener, the workspace writer, thread keys),
  // embedders and summarizers.
  ['store', 'embeddings', 'summaries'],
  // Memory units (Tier 2, markdown in .cairn/memory/); code anchors of units and the cache of
  // their checks, which packs read.
  ['units', 'anchors'],
  // Task history: failures, fix patterns, run digests.
  ['history'],
  // Recall pools over every index, and the pack pipeline.
  ['recall', 'packs'],
  // Working memory: the lifecycle of hook events, heads, pack injection.
  ['working'],
  // Whole-project jobs built on the rest.
  ['maintenance', 'doctor', 'backup'],
];

/** Upward imports the design keeps on purpose, each with its reason (none today). */
const UPWARD_EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [];

/** At most this many names in the public entry (`@cairn/engine`). */
const PUBLIC_NAME_LIMIT = 80;

const ROOT = resolve(import.meta.dirname, '../../..');
const SRC = join(ROOT, 'packages/engine/src');

interface ImportEdge {
  file: string;
  target: string;
  typeOnly: boolean;
}

function engineFiles(): string[] {
  return readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(SRC, file));
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Every local import, re-export and dynamic import of `file`, resolved to a file. */
function localImports(file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    const target = resolveLocal(file, specifier);
    if (target) edges.push({ file, target, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.importClause?.isTypeOnly === true);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The folder (module) a file belongs to; '' for the files at the top of src/. */
function moduleOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length === 1 ? '' : parts[0]!;
}

const isTest = (file: string) => file.endsWith('.test.ts');
const isTestHelper = (file: string) =>
  /\.fixture\.ts$/.test(file) || file.includes(`${sep}testing${sep}`);
const isEntry = (file: string) =>
  relative(SRC, file).split(sep).length === 2 && file.endsWith(`${sep}index.ts`);
const name = (file: string) => relative(SRC, file).split(sep).join('/');

let edges: ImportEdge[] | undefined;

/** The imports that cross from one engine folder (or the top of src/) to another, parsed once. */
function crossModuleEdges(): ImportEdge[] {
  edges ??= engineFiles()
    .flatMap(localImports)
    .filter((edge) => moduleOf(edge.file) !== moduleOf(edge.target));
  return edges;
}

const layerOf = new Map(ENGINE_LAYERS.flatMap((folders, layer) => folders.map((f) => [f, layer])));

/** The named exports of a module file, counted from its syntax; `export *` is reported as '*'. */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause) names.push('*');
      else if (ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) names.push(element.name.text);
      } else names.push('*');
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
      }
    } else if (
      'name' in statement &&
      statement.name &&
      ts.isIdentifier(statement.name as ts.Node)
    ) {
      names.push((statement.name as ts.Identifier).text);
    }
  }
  return names;
}

/** The names other packages import from `specifier` (static, re-exported, or `(await import(...)).name`). */
function namesUsedOutsideEngine(specifier: string): Set<string> {
  const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mts', '*.js', '*.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && !file.startsWith('packages/engine/'));
  const used = new Set<string>();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    if (!text.includes(`'${specifier}'`)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const from =
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
          ? node.moduleSpecifier.text
          : undefined;
      if (from === specifier) {
        const bindings = ts.isImportDeclaration(node)
          ? node.importClause?.namedBindings
          : (node as ts.ExportDeclaration).exportClause;
        if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
          for (const element of bindings.elements) {
            used.add((element.propertyName ?? element.name).text);
          }
        }
      }
      if (
        ts.isPropertyAccessExpression(node) &&
        node.expression.getText(source).replace(/\s/g, '') === `(awaitimport('${specifier}'))`
      ) {
        used.add(node.name.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return used;
}

describe('engine modules', () => {
  it('every engine folder has a place in the layers and a curated entry', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter((folder) =>
        readdirSync(join(SRC, folder)).some((f) => f.endsWith('.ts') && !isTest(f)),
      );
    expect(folders.filter((folder) => !layerOf.has(folder))).toEqual([]);
    const usedByOthers = new Set(crossModuleEdges().map((edge) => moduleOf(edge.target)));
    const withoutEntry = [...usedByOthers].filter(
      (folder) => folder !== '' && !existsSync(join(SRC, folder, 'index.ts')),
    );
    expect(withoutEntry).toEqual([]);
    const starred = folders.filter(
      (folder) =>
        existsSync(join(SRC, folder, 'index.ts')) &&
        exportedNames(join(SRC, folder, 'index.ts')).includes('*'),
    );
    expect(starred).toEqual([]);
  });

  it('imports across engine folders go through the folder entry', () => {
    const allowed = new Set(UPWARD_EXCEPTIONS.map((e) => `${e.from} -> ${e.to}`));
    const offenders = crossModuleEdges()
      .filter((edge) => !allowed.has(`${name(edge.file)} -> ${name(edge.target)}`))
      .filter((edge) => moduleOf(edge.target) !== '' && !isEntry(edge.target))
      .filter((edge) => !(isTest(edge.file) && isTestHelper(edge.target)))
      .map((edge) => `${name(edge.file)} imports ${name(edge.target)}`);
    expect(offenders).toEqual([]);
  });

  it('the arrows between engine folders run one way, down the layers', () => {
    const allowed = new Set(UPWARD_EXCEPTIONS.map((e) => `${e.from} -> ${e.to}`));
    const offenders = crossModuleEdges()
      .filter((edge) => !isTest(edge.file) && !isTestHelper(edge.file))
      .filter((edge) => moduleOf(edge.file) !== '')
      .filter((edge) => {
        const to = moduleOf(edge.target);
        if (to === '') return true;
        return layerOf.get(to)! >= layerOf.get(moduleOf(edge.file))!;
      })
      .map((edge) => `${name(edge.file)} -> ${name(edge.target)}`)
      .filter((arrow) => !allowed.has(arrow));
    expect(offenders).toEqual([]);
    // An exception that no longer happens leaves the list.
    const arrows = new Set(crossModuleEdges().map((e) => `${name(e.file)} -> ${name(e.target)}`));
    expect([...allowed].filter((arrow) => !arrows.has(arrow))).toEqual([]);
  });

  it(`the public entry names at most ${PUBLIC_NAME_LIMIT} exports, each used by another package`, () => {
    const names = exportedNames(join(SRC, 'index.ts'));
    expect(names).not.toContain('*');
    expect(names.length).toBeLessThanOrEqual(PUBLIC_NAME_LIMIT);
    const used = namesUsedOutsideEngine('@cairn/engine');
    expect(names.filter((exported) => !used.has(exported))).toEqual([]);
  }, 60_000);

  it('the internals entry holds only what the benchmarks use, none of it public', () => {
    const names = exportedNames(join(SRC, 'internals.ts'));
    expect(names).not.toContain('*');
    const used = namesUsedOutsideEngine('@cairn/engine/internals');
    expect(names.filter((exported) => !used.has(exported))).toEqual([]);
    const publicNames = new Set(exportedNames(join(SRC, 'index.ts')));
    expect(names.filter((exported) => publicNames.has(exported))).toEqual([]);
  }, 60_000);
});

import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  type EventFidelity,
  type FidelityCell,
  HARNESS_EVENTS,
  type HarnessDeclaration,
} from '@cairn/core';
import { CELL_LABELS, harnessDeclarations, harnessFidelityTable } from './harness-tables';
import { markdownTable } from './markers';
import { readReport, type StampContext, stampContext, testStamp } from './test-reports';
import { type PackageFolder, packageFolders, REPO_ROOT } from './workspace-packages';

/**
 * The fidelity matrix joined to its evidence: each harness declares, beside
 * its fidelity, the e2e test that proves each supported cell (`evidence`).
 * docs/HARNESSES.md shows per cell that test and the pinned harness
 * version; the docs site's page adds what this build's test run said of it.
 */

const TEST_TITLE = /\b(?:it|test)(?:\.(?:runIf|skipIf)\([^)]*\))?\(\s*(['"`])((?:(?!\1).)+)\1/g;

/** The titles a test file's `it(...)` / `test(...)` calls give. */
export function testTitles(text: string): string[] {
  return [...text.matchAll(TEST_TITLE)].map((match) => match[2]!);
}

const CELLS: readonly FidelityCell[] = [...HARNESS_EVENTS, 'afterToolInjection'];

const fidelityOf = (declaration: HarnessDeclaration, cell: FidelityCell): EventFidelity =>
  cell === 'afterToolInjection' ? declaration.afterToolInjection : declaration.events[cell];

/** The cells a harness supports (full or degraded), in the matrix's order. */
function supportedCells(declaration: HarnessDeclaration): FidelityCell[] {
  return CELLS.filter((cell) => fidelityOf(declaration, cell).level !== 'none');
}

/**
 * What is wrong with a declaration's evidence against the test files in
 * `srcDir`, one line each: a supported cell naming no test, a file that is
 * not an e2e test or is not there, a title the file does not hold.
 */
export function evidenceProblems(declaration: HarnessDeclaration, srcDir: string): string[] {
  const problems: string[] = [];
  const titles = new Map<string, string[] | undefined>();
  const titlesOf = (file: string) => {
    if (!titles.has(file)) {
      const path = join(srcDir, file);
      titles.set(file, existsSync(path) ? testTitles(readFileSync(path, 'utf8')) : undefined);
    }
    return titles.get(file);
  };
  for (const cell of supportedCells(declaration)) {
    const evidence = declaration.evidence?.[cell];
    const level = fidelityOf(declaration, cell).level;
    if (!evidence) {
      problems.push(
        `${declaration.id}: ${cell} is ${level} but names no e2e test (evidence.${cell})`,
      );
      continue;
    }
    const found = titlesOf(evidence.file);
    if (!evidence.file.endsWith('.e2e.test.ts')) {
      problems.push(`${declaration.id}: ${cell} names ${evidence.file}, not an e2e test file`);
    } else if (!found) {
      problems.push(`${declaration.id}: ${cell} names ${evidence.file}, which is not in src/`);
    } else if (!found.includes(evidence.test)) {
      problems.push(
        `${declaration.id}: ${cell} names the test "${evidence.test}", which ${evidence.file} does not hold`,
      );
    }
  }
  return problems;
}

export interface DeclaredHarness {
  declaration: HarnessDeclaration;
  folder: PackageFolder;
}

/** Each harness's declaration with its package folder (declarations come in folder order). */
export async function declaredHarnesses(): Promise<DeclaredHarness[]> {
  const declarations = await harnessDeclarations();
  const folders = packageFolders('harnesses');
  return declarations.map((declaration, i) => ({ declaration, folder: folders[i]! }));
}

/** The harness binary a package pins: the devDependency at the version its declaration was checked against. */
function pinnedPackage(manifest: PackageFolder['manifest'], version: string) {
  // A plugin SDK can share the binary's version: the binary is the one that is not a plugin.
  const entries = Object.entries(manifest.devDependencies ?? {}).filter(([, v]) => v === version);
  const entry = entries.find(([name]) => !name.includes('plugin')) ?? entries[0];
  return entry ? `\`${entry[0]}@${entry[1]}\`` : `version \`${version}\``;
}

const escapeCell = (text: string) => text.replaceAll('|', '\\|');

/**
 * One harness: its pinned version, then per supported cell its fidelity
 * and the test that proves it (a link relative to docs/), and with
 * `context` what this build's test report says of that test.
 */
function harnessSection({ declaration, folder }: DeclaredHarness, context?: StampContext): string {
  const report = context ? readReport(folder.dir) : undefined;
  const rows = supportedCells(declaration).map((cell) => {
    const evidence = declaration.evidence?.[cell];
    const path = evidence && relative(REPO_ROOT, join(folder.dir, 'src', evidence.file));
    const proof = evidence
      ? `[${evidence.file}](../${path}): ${escapeCell(evidence.test)}`
      : 'no test named';
    const stamp =
      evidence && context ? testStamp(report, evidence.file, evidence.test, context) : '';
    return [
      CELL_LABELS[cell],
      fidelityOf(declaration, cell).level,
      proof,
      ...(context ? [stamp || 'no test named'] : []),
    ];
  });
  const header = ['Cell', 'Fidelity', 'Proved by', ...(context ? ['This build'] : [])];
  return [
    `### ${declaration.name}`,
    '',
    `Pinned: ${pinnedPackage(folder.manifest, declaration.checkedVersion)} (a devDependency of \`${folder.manifest.name}\`, installed from npm by \`pnpm install\`).`,
    '',
    markdownTable(header, rows),
  ].join('\n');
}

/** The generated evidence of docs/HARNESSES.md: per harness, the pinned version and each cell's test. */
export async function harnessEvidenceTables(): Promise<string> {
  return (await declaredHarnesses()).map((harness) => harnessSection(harness)).join('\n\n');
}

/**
 * The docs site's page: the matrix, then per harness the pinned version,
 * each cell's test and what this build's run of it said (`pnpm docs:site`
 * runs after `pnpm test` in CI; without a report, "not run in this build").
 */
export async function fidelityPage(context: StampContext = stampContext()): Promise<string> {
  const sections = (await declaredHarnesses()).map((harness) => harnessSection(harness, context));
  return [
    '# Harness fidelity and its evidence',
    '',
    'What each harness supports, event by event, and the tests that prove it. The',
    "matrix is generated from each harness package's declaration (the same table as",
    '[HARNESSES.md](./HARNESSES.md)). Below it, per harness: the harness version the',
    'package pins, and for each supported cell the end-to-end test that proves it (it',
    'drives the real harness binary from npm against a temporary project) with what',
    "this build's run of that test said: `passed in CI on <day> (<commit>)` when CI",
    'ran it and it passed, `failed …` when it failed, `skipped in this build` when its',
    'harness binary was missing, and `not run in this build` when this site was built',
    'without running the tests.',
    '',
    await harnessFidelityTable(),
    '',
    '## Evidence',
    '',
    ...sections.join('\n\n').split('\n'),
    '',
  ].join('\n');
}

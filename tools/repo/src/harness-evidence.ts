import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { harnessDeclarations, harnessFidelityTable } from './harness-tables';
import { packageFolders, REPO_ROOT } from './workspace-packages';

/** One end-to-end test file of a harness and the tests in it. */
interface EvidenceFile {
  path: string;
  tests: string[];
  /** The day of the last commit that changed the file (`git log`), or undefined outside git. */
  changed?: string;
}

const TEST_TITLE = /\b(?:it|test)(?:\.(?:runIf|skipIf)\([^)]*\))?\(\s*(['"`])((?:(?!\1).)+)\1/g;

function lastChange(path: string): string | undefined {
  try {
    const day = execFileSync('git', ['log', '-1', '--format=%cs', '--', path], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
    return day || undefined;
  } catch {
    return undefined;
  }
}

function evidenceFiles(dir: string): EvidenceFile[] {
  const src = join(dir, 'src');
  return readdirSync(src)
    .filter((name) => name.endsWith('.e2e.test.ts'))
    .sort()
    .map((name) => {
      const path = relative(REPO_ROOT, join(src, name));
      const text = readFileSync(join(src, name), 'utf8');
      const tests = [...text.matchAll(TEST_TITLE)].map((match) => match[2]!);
      return { path, tests, changed: lastChange(path) };
    });
}

/** The harness binary a package pins: the devDependency at the version its declaration was checked against. */
function pinnedPackage(manifest: { devDependencies?: Record<string, string> }, version: string) {
  // A plugin SDK can share the binary's version: the binary is the one that is not a plugin.
  const entries = Object.entries(manifest.devDependencies ?? {}).filter(([, v]) => v === version);
  const entry = entries.find(([name]) => !name.includes('plugin')) ?? entries[0];
  return entry ? `\`${entry[0]}@${entry[1]}\`` : `version \`${version}\``;
}

/**
 * The fidelity matrix joined to its evidence, for the docs site: per
 * harness, the pinned harness version and each end-to-end test that runs
 * the real harness, with the day its file last changed.
 */
export async function fidelityPage(): Promise<string> {
  const declarations = await harnessDeclarations();
  const folders = packageFolders('harnesses');
  const sections = declarations.map((declaration, i) => {
    const folder = folders[i]!;
    const files = evidenceFiles(folder.dir);
    return [
      `### ${declaration.name}`,
      '',
      `Pinned: ${pinnedPackage(folder.manifest, declaration.checkedVersion)} (a devDependency of \`${folder.manifest.name}\`, installed from npm by \`pnpm install\`).`,
      '',
      ...files.flatMap((file) => [
        `- \`${file.path}\`${file.changed ? ` (last changed ${file.changed})` : ''}`,
        ...file.tests.map((test) => `  - ${test.replaceAll('|', '\\|')}`),
      ]),
    ].join('\n');
  });
  return [
    '# Harness fidelity and its evidence',
    '',
    'What each harness supports, event by event, and the tests that prove it. The',
    "matrix is generated from each harness package's declaration (the same table as",
    '[HARNESSES.md](./HARNESSES.md)); the evidence below it lists, per harness, the',
    'harness version the package pins and its end-to-end tests, which drive the real',
    'harness binary from npm against a temporary project. CI runs them on every',
    'change; the day shown is when the test file last changed (from git), so a',
    'cell is proved at least as of that day by the run of that commit.',
    '',
    await harnessFidelityTable(),
    '',
    '## Evidence',
    '',
    ...sections.join('\n\n').split('\n'),
    '',
  ].join('\n');
}

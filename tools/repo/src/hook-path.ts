import { join, relative, resolve } from 'node:path';
import { packageOf } from './hook-coverage';
import { packageHops } from './package-hops';
import { promptHookCoverage } from './prompt-hook-coverage';
import { serverHookCoverage } from './server-hook-coverage';

/*
 * `pnpm --filter @cairn/repo-tools hook-path [--cli <dist folder>]`: runs one
 * Claude Code UserPromptSubmit event (the recorded fixture) the way Claude
 * Code runs it, as a `cairn hook` process of the built CLI with the hook
 * server off, on a temp project, with V8 coverage on; then lists the source
 * files and packages whose code ran, through the bundles' source maps. It
 * prints "N files in M packages" for Cairn's own code (third-party code is
 * counted apart) three ways: any code that ran (module set-up included), a
 * function called, and code that ran while the event was handled, once the
 * CLI bundle's set-up had returned: the last is how far one prompt travels
 * in its own process. Then the same prompt as installed: the hook process
 * hands it to the hook server, which has the project open; both processes'
 * counts.
 */

const ROOT = resolve(import.meta.dirname, '../../..');

function cliDir(argv: string[]): string {
  const at = argv.indexOf('--cli');
  return resolve(at >= 0 && argv[at + 1] ? argv[at + 1]! : join(ROOT, 'packages/cli/dist'));
}

function main(): void {
  const dir = cliDir(process.argv.slice(2));
  const { called, setUp, event } = promptHookCoverage(dir);
  // The checkout the CLI was built in (another one's `packages/cli/dist` measures that build).
  const root = resolve(dir, '../../..');
  report(root, { called, setUp, event });
  const { client, server } = serverHookCoverage(dir);
  if (process.argv.includes('--server')) list(byPackage(root, server));
  if (process.argv.includes('--client')) list(byPackage(root, client));
  process.stdout.write(
    `as installed, hook process: ${summary(root, client)}\n` +
      `as installed, hook server for the event: ${summary(root, server)}\n`,
  );
}

interface PackageFiles {
  cairn: boolean;
  files: string[];
}

function byPackage(root: string, sources: Set<string>): Map<string, PackageFiles> {
  const packages = new Map<string, PackageFiles>();
  for (const file of [...sources].sort()) {
    const { name, cairn } = packageOf(root, file);
    const entry = packages.get(name) ?? { cairn, files: [] };
    entry.files.push(relative(root, file));
    packages.set(name, entry);
  }
  return packages;
}

/** "N files in M packages, H hops between them" of Cairn's own code, and third-party code apart. */
function summary(root: string, sources: Set<string>): string {
  const packages = byPackage(root, sources);
  const ours = [...packages.values()].filter((entry) => entry.cairn);
  const theirs = [...packages.values()].filter((entry) => !entry.cairn);
  const files = (list: PackageFiles[]) => list.reduce((sum, entry) => sum + entry.files.length, 0);
  const { hops, edges } = packageHops(root, sources);
  if (process.argv.includes('--edges')) process.stdout.write(`${edges.join('\n')}\n`);
  return `${files(ours)} files in ${ours.length} packages, ${edges.length} hops between them (${hops} imports across packages) (third-party: ${files(theirs)} files in ${theirs.length} packages)`;
}

/** Cairn's own files, by package. */
function list(packages: Map<string, PackageFiles>): void {
  for (const [name, entry] of packages) {
    if (!entry.cairn) continue;
    process.stdout.write(`${name} (${entry.files.length})\n`);
    for (const file of entry.files) process.stdout.write(`  ${file}\n`);
  }
}

/** The files that ran while the event was handled, by package; then the three counts. */
function report(
  root: string,
  { called, setUp, event }: Record<'called' | 'setUp' | 'event', Set<string>>,
): void {
  const other = ['--server', '--client'].some((flag) => process.argv.includes(flag));
  if (!other) list(byPackage(root, event));
  process.stdout.write(`module set-up included: ${summary(root, setUp)}\n`);
  process.stdout.write(`functions called: ${summary(root, called)}\n`);
  process.stdout.write(`while the event was handled: ${summary(root, event)}\n`);
}

main();

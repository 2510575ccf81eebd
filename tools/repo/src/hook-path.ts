import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { coveredSources, packageOf } from './hook-coverage';

/*
 * `pnpm --filter @cairn/repo-tools hook-path [--cli <dist folder>]`: runs one
 * Claude Code UserPromptSubmit event (the recorded fixture) the way Claude
 * Code runs it, as a `cairn hook` process of the built CLI with the hook
 * server off, on a temp project, with V8 coverage on; then lists the source
 * files and packages whose code ran, through the bundles' source maps. It
 * prints "N files in M packages" for Cairn's own code (third-party code is
 * counted apart), the measure of how far one prompt travels.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURE = join(ROOT, 'harnesses/claude-code/fixtures/session/02-UserPromptSubmit.json');

function cliDir(argv: string[]): string {
  const at = argv.indexOf('--cli');
  return resolve(at >= 0 && argv[at + 1] ? argv[at + 1]! : join(ROOT, 'packages/cli/dist'));
}

/** Runs the CLI in the temp world; the event's process writes its coverage to `coverage`. */
function runCli(bin: string, args: string[], env: NodeJS.ProcessEnv, input?: string): string {
  return execFileSync(process.execPath, [bin, ...args], {
    env,
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
  });
}

function main(): void {
  const dir = cliDir(process.argv.slice(2));
  const bin = join(dir, 'bin.cjs');
  const temp = mkdtempSync(join(tmpdir(), 'cairn-hook-path-'));
  try {
    const project = join(temp, 'project');
    const home = join(temp, 'home');
    const coverage = join(temp, 'coverage');
    for (const folder of [project, home, coverage]) mkdirSync(folder, { recursive: true });
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_CONFIG_HOME: join(home, '.config'),
      CAIRN_HOOK_SERVER: 'off',
    };
    runCli(bin, ['init', '--root', project], env);
    runCli(bin, ['add', 'The deploy key lives in the team vault.', '--root', project], env);
    const { payload } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
      payload: Record<string, unknown>;
    };
    const event = JSON.stringify({ ...payload, cwd: project, transcript_path: join(temp, 'none') });
    runCli(
      bin,
      ['hook', 'claude-code', 'UserPromptSubmit'],
      { ...env, NODE_V8_COVERAGE: coverage },
      event,
    );
    const setUp = coveredSources(coverage, dir, false);
    const called = coveredSources(coverage, dir, true);
    report(called, setUp);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

interface PackageFiles {
  cairn: boolean;
  files: string[];
}

function byPackage(sources: Set<string>): Map<string, PackageFiles> {
  const packages = new Map<string, PackageFiles>();
  for (const file of [...sources].sort()) {
    const { name, cairn } = packageOf(ROOT, file);
    const entry = packages.get(name) ?? { cairn, files: [] };
    entry.files.push(relative(ROOT, file));
    packages.set(name, entry);
  }
  return packages;
}

/** "N files in M packages" of Cairn's own code, and third-party code apart. */
function summary(packages: Map<string, PackageFiles>): string {
  const ours = [...packages.values()].filter((entry) => entry.cairn);
  const theirs = [...packages.values()].filter((entry) => !entry.cairn);
  const files = (list: PackageFiles[]) => list.reduce((sum, entry) => sum + entry.files.length, 0);
  return `${files(ours)} files in ${ours.length} packages (third-party: ${files(theirs)} files in ${theirs.length} packages)`;
}

/** The files with a function that was called, by package; then both counts. */
function report(called: Set<string>, setUp: Set<string>): void {
  const packages = byPackage(called);
  for (const [name, entry] of packages) {
    if (!entry.cairn) continue;
    process.stdout.write(`${name} (${entry.files.length})\n`);
    for (const file of entry.files) process.stdout.write(`  ${file}\n`);
  }
  process.stdout.write(`module set-up included: ${summary(byPackage(setUp))}\n`);
  process.stdout.write(`functions called: ${summary(packages)}\n`);
}

main();

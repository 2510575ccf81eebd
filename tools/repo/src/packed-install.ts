/**
 * The packed-install test (`pnpm packed-install`, run by `.ci/run`): packs
 * every publishable package as the registry would get it, lints each
 * tarball with publint and attw, installs the tarballs with npm into an
 * empty prefix, and runs the installed `cairn` there: init, add, search,
 * `mcp` over stdio, `ui` (the dashboard answers) and `install <harness>
 * --dry-run` for every harness; then installs them again on Node 24 with
 * install scripts off (no better-sqlite3 build) and runs init, add, search
 * and an install there.
 * Prints the tarball sizes; `--write-doc` also writes them into
 * docs/BENCHMARKS.md; `--sizes-only` packs and measures, nothing more.
 * `--keep` leaves the temporary folder in place.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
// The workspace's Node 24 from the npm registry (tools/node24), by path like the e2e tests.
import { node24Path } from '../../node24/index.js';
import { HARNESSES, smokeInstall, smokeMcp, smokeMemory, smokeUi } from './packed-smoke';
import { measureTarball, sizesTable, type TarballSize, withSizesSection } from './tarballs';
import { type PublishablePackage, publishablePackages, REPO_ROOT } from './workspace-packages';

const run = promisify(execFile);
const BIN = join(REPO_ROOT, 'node_modules', '.bin');

/** Packed and linted, but not installed: optional backends and the test kit are not needed by `cairn`. */
const NOT_INSTALLED = new Set([
  '@cairn/testkit',
  '@cairn/backend-lancedb',
  '@cairn/backend-mem0',
  '@cairn/backend-qdrant',
  '@cairn/backend-qmd',
]);

async function step<T>(title: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  process.stdout.write(`packed-install: ${title}\n`);
  const result = await work();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`packed-install: ${title}: done in ${seconds} s\n`);
  return result;
}

async function output(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  try {
    return (await run(file, args, { ...options, maxBuffer: 64 * 2 ** 20 })).stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed\n${stdout}${stderr}`);
  }
}

async function pack(pkg: PublishablePackage, dest: string): Promise<TarballSize> {
  const json = await output('pnpm', ['pack', '--pack-destination', dest, '--json'], {
    cwd: pkg.dir,
  });
  const { filename } = JSON.parse(json) as { filename: string };
  return measureTarball(pkg.manifest.name, filename);
}

/** publint (warnings count) and attw for an ESM-only package; every failure, not the first. */
async function lint(tarballs: TarballSize[]): Promise<void> {
  const failures: string[] = [];
  for (const tarball of tarballs) {
    for (const [tool, args] of [
      ['publint', ['run', tarball.file, '--strict']],
      ['attw', [tarball.file, '--profile', 'esm-only', '--format', 'ascii']],
    ] as const) {
      await output(join(BIN, tool), [...args]).catch((error: Error) => {
        failures.push(`${tarball.name}: ${tool}\n${error.message}`);
      });
    }
  }
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
}

/** The environment of the npm child: the user's npm config, none of pnpm's npm_* variables. */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)),
  );
}

async function npmInstall(
  prefix: string,
  tarballs: TarballSize[],
  options: { flags?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  await mkdir(prefix, { recursive: true });
  await writeFile(
    join(prefix, 'package.json'),
    '{ "name": "cairn-packed-install", "private": true }\n',
  );
  const files = tarballs.filter((t) => !NOT_INSTALLED.has(t.name)).map((t) => t.file);
  const flags = ['--no-audit', '--no-fund', ...(options.flags ?? [])];
  const log = await output('npm', ['install', ...flags, '--prefix', prefix, ...files], {
    cwd: prefix,
    env: options.env ?? npmEnv(),
  });
  process.stdout.write(log);
}

/** `cairn` runs with its home, config and caches in the temporary folder, and no CAIRN_* settings. */
function cairnEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(npmEnv()).filter(([key]) => !key.startsWith('CAIRN_')),
  );
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CODEX_HOME: join(home, '.codex'),
  };
}

function sizesSection(sizes: TarballSize[]): string {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT })
    .toString()
    .trim();
  const date = new Date().toISOString().slice(0, 10);
  return [
    '## Package tarballs',
    '',
    `_Written by \`pnpm packed-install --write-doc\` (tools/repo/src/packed-install.ts), ${date}, commit ${commit}; \`pnpm bench\` keeps this section as it is._`,
    '',
    'What `npm publish` would upload: `pnpm pack` of every published package (kB = 1000 bytes).',
    'Source maps stay out of the tarballs (`"files": ["dist", "!dist/**/*.map"]`): with them,',
    'on 2026-11-25, the same packages weighed 2,531 kB packed and 9,490 kB unpacked, 76% of it',
    'maps, the CLI alone 1,892 kB and 7,184 kB.',
    '',
    sizesTable(sizes),
  ].join('\n');
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), 'cairn-packed-'));
  const dirs = {
    tarballs: join(root, 'tarballs'),
    prefix: join(root, 'prefix'),
    home: join(root, 'home'),
    project: join(root, 'project'),
  };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  try {
    const packages = publishablePackages();
    const sizes = await step(`pack ${packages.length} packages`, async () => {
      const out: TarballSize[] = [];
      for (const pkg of packages) out.push(await pack(pkg, dirs.tarballs));
      return out;
    });
    process.stdout.write(`${sizesTable(sizes)}\n`);
    if (!args.has('--sizes-only')) await lintInstallRun(dirs, sizes);
    if (args.has('--write-doc')) {
      const path = join(REPO_ROOT, 'docs', 'BENCHMARKS.md');
      await writeFile(path, withSizesSection(await readFile(path, 'utf8'), sizesSection(sizes)));
      process.stdout.write('packed-install: wrote the sizes into docs/BENCHMARKS.md\n');
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    process.stdout.write(`packed-install: ok in ${seconds} s\n`);
  } finally {
    if (args.has('--keep')) process.stdout.write(`packed-install: kept ${root}\n`);
    else await rm(root, { recursive: true, force: true });
  }
}

async function lintInstallRun(
  dirs: Record<'prefix' | 'home' | 'project', string>,
  sizes: TarballSize[],
): Promise<void> {
  await step('publint and attw --profile esm-only on every tarball', () => lint(sizes));
  await step('npm install of the tarballs into an empty prefix', () =>
    npmInstall(dirs.prefix, sizes),
  );
  const ctx = {
    bin: join(dirs.prefix, 'node_modules', '.bin', 'cairn'),
    project: dirs.project,
    env: cairnEnv(dirs.home),
  };
  await step('cairn init, add, search', () => smokeMemory(ctx));
  const tools = await step('cairn mcp: initialize, tools/list', () => smokeMcp(ctx));
  process.stdout.write(`cairn mcp tools: ${tools.join(', ')}\n`);
  await step('cairn ui: sign in, page, /api/units', () => smokeUi(ctx));
  await step(`cairn install ${HARNESSES.join(' | ')} --dry-run`, () => smokeInstall(ctx));
  await withoutInstallScripts(dirs, sizes);
}

/**
 * The same tarballs on Node 24 with install scripts off (`npm i
 * --ignore-scripts`, as an npm that enforces its script policy does):
 * better-sqlite3 is not built, node:sqlite does the work, and init, add,
 * search and an install (dry run) succeed. Node 24 comes from the npm
 * registry (tools/node24); npm and `cairn` run on it through PATH.
 */
async function withoutInstallScripts(
  dirs: Record<'prefix' | 'home' | 'project', string>,
  sizes: TarballSize[],
): Promise<void> {
  const node = node24Path();
  if (!node) {
    process.stdout.write('packed-install: no Node 24 binary (tools/node24): Node 24 run skipped\n');
    return;
  }
  const prefix = `${dirs.prefix}-node24`;
  const path = `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`;
  await step('npm install --ignore-scripts of the tarballs on Node 24', () =>
    npmInstall(prefix, sizes, { flags: ['--ignore-scripts'], env: { ...npmEnv(), PATH: path } }),
  );
  const addon = join(prefix, 'node_modules', 'better-sqlite3', 'build');
  if (existsSync(addon))
    throw new Error(`better-sqlite3 was built despite --ignore-scripts: ${addon}`);
  const ctx = {
    bin: join(prefix, 'node_modules', '.bin', 'cairn'),
    project: `${dirs.project}-node24`,
    env: { ...cairnEnv(`${dirs.home}-node24`), PATH: path },
  };
  await mkdir(ctx.project, { recursive: true });
  await step('Node 24, no install scripts: cairn init, add, search', () => smokeMemory(ctx));
  await step('Node 24, no install scripts: cairn install claude-code --dry-run', () =>
    smokeInstall(ctx, ['claude-code']),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `packed-install: FAILED\n${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});

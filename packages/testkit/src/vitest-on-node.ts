import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export interface VitestRun {
  /** The child's exit status (null when it was killed). */
  status: number | null;
  /** stdout and stderr, colours stripped. */
  output: string;
}

/**
 * Runs vitest over `args` (files, `--exclude`, ...) in `packageDir` under
 * another Node binary: CI runs Node 20, and code paths that only exist on a
 * newer Node (node:sqlite on Node 24) get the package's own tests there.
 */
export function runVitestOnNode(
  node: string,
  packageDir: string,
  args: string[],
  env: Record<string, string> = {},
): VitestRun {
  const resolve = createRequire(join(packageDir, 'package.json')).resolve;
  const vitest = join(dirname(resolve('vitest/package.json')), 'vitest.mjs');
  const run = spawnSync(node, [vitest, 'run', '--reporter=dot', ...args], {
    cwd: packageDir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { status: run.status, output: stripVTControlCharacters(`${run.stdout}\n${run.stderr}`) };
}

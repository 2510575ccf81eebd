import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Node 24 side of the bench: the Node 24 binary (`@cairn/node24`) and
 * the qmd CLI (`@tobilu/qmd`, which needs Node >= 22), found through the
 * package that owns them (@cairn/backend-qmd), never downloaded. `cairn`
 * runs on the same binary with node:sqlite, its SQLite driver there.
 */
export interface Node24Tools {
  node: string;
  /** `node --version` of that binary. */
  version: string;
  /** qmd's launcher script (run as `node <qmdBin> ...`). */
  qmdBin: string;
  /** qmd's package folder, for its SDK (`dist/index.js`). */
  qmdDir: string;
}

export type Node24Lookup = { ok: true; tools: Node24Tools } | { ok: false; reason: string };

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

function findNode24(): string | undefined {
  const qmdBackend = createRequire(join(packageDir('@cairn/backend-qmd'), 'package.json'));
  const node24 = qmdBackend('@cairn/node24') as { node24Path(): string | undefined };
  return node24.node24Path();
}

/** qmd's package folder, as installed for @cairn/backend-qmd (its exports hide package.json). */
function findQmdDir(): string | undefined {
  const dir = join(packageDir('@cairn/backend-qmd'), 'node_modules', '@tobilu', 'qmd');
  return existsSync(join(dir, 'bin', 'qmd')) ? realpathSync(dir) : undefined;
}

export async function findNode24Tools(): Promise<Node24Lookup> {
  let node: string | undefined;
  try {
    node = findNode24();
  } catch (error) {
    return { ok: false, reason: `cannot load @cairn/node24: ${(error as Error).message}` };
  }
  if (!node) return { ok: false, reason: '@cairn/node24 has no Node 24 binary for this platform' };
  const qmdDir = findQmdDir();
  if (!qmdDir) return { ok: false, reason: '@tobilu/qmd is not installed for @cairn/backend-qmd' };
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return {
    ok: true,
    tools: { node, version, qmdBin: join(qmdDir, 'bin', 'qmd'), qmdDir },
  };
}

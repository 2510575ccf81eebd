import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The Node 24 side of the bench: the Node 24 binary (`@cairn/node24`), the
 * qmd CLI (`@tobilu/qmd`, which needs Node >= 22) and a better-sqlite3
 * addon built for Node 24 so `cairn` can run on that same binary. All are
 * found through the packages that own them (@cairn/backend-qmd and
 * @cairn/harness-openclaw), never downloaded.
 */
export interface Node24Tools {
  node: string;
  /** `node --version` of that binary. */
  version: string;
  /** qmd's launcher script (run as `node <qmdBin> ...`). */
  qmdBin: string;
  /** qmd's package folder, for its SDK (`dist/index.js`). */
  qmdDir: string;
  /** The Node 24 better-sqlite3 addon for Cairn (CAIRN_SQLITE_BINDING), or why there is none. */
  cairnSqlite: { ok: true; binding: string } | { ok: false; reason: string };
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

interface SqliteScript {
  sqliteBindingPath(node?: string): string;
}

const ADDON = 'better_sqlite3.node';

/**
 * Cairn's better-sqlite3 built for Node 24 by the OpenClaw harness's script
 * (cached under node_modules/.cache/). The bench never builds it: a build
 * takes minutes and other runs may be building into the same folder. When
 * the script's current variant is missing, an earlier build for the same
 * better-sqlite3 version and ABI is used (fine for short CLI processes).
 */
async function cairnSqliteForNode24(node: string): Promise<string | undefined> {
  const script = join(packageDir('@cairn/harness-openclaw'), 'scripts', 'build-sqlite-node24.mjs');
  const builder = (await import(pathToFileURL(script).href)) as SqliteScript;
  const wanted = builder.sqliteBindingPath(node);
  if (existsSync(wanted)) return wanted;
  const cache = dirname(dirname(wanted));
  const prefix = basename(dirname(wanted)).replace(/-abi(\d+).*$/, '-abi$1');
  const earlier = readdirSync(cache)
    .filter((name) => name.startsWith(prefix) && existsSync(join(cache, name, ADDON)))
    .sort();
  return earlier.length ? join(cache, earlier[0]!, ADDON) : undefined;
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
  const cairnSqlite = await cairnSqliteForNode24(node).then(
    (binding): Node24Tools['cairnSqlite'] =>
      binding
        ? { ok: true, binding }
        : {
            ok: false,
            reason:
              'no better-sqlite3 built for Node 24 yet: run `node harnesses/openclaw/scripts/build-sqlite-node24.mjs` once',
          },
    (error: Error): Node24Tools['cairnSqlite'] => ({
      ok: false,
      reason: `cannot locate Cairn's Node 24 SQLite: ${error.message}`,
    }),
  );
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return {
    ok: true,
    tools: { node, version, qmdBin: join(qmdDir, 'bin', 'qmd'), qmdDir, cairnSqlite },
  };
}

#!/usr/bin/env node
// Builds better-sqlite3 (the version @cairn/engine uses) for the Node 24
// binary of @cairn/node24, so the OpenClaw plugin (which runs inside
// OpenClaw on Node >= 24.16) can open Cairn's SQLite stores. The addon goes
// to <repo>/node_modules/.cache/cairn-harness-openclaw/ and is reused when
// present; prints its path on stdout.
//
// Usage: node scripts/build-sqlite-node24.mjs [--force]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node24Path } from '@cairn/node24';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function sqliteSourceDir() {
  const fromEngine = createRequire(
    createRequire(join(packageDir, 'package.json')).resolve('@cairn/engine/package.json'),
  );
  return dirname(fromEngine.resolve('better-sqlite3/package.json'));
}

/** Where the Node 24 addon lives (or will live) for this better-sqlite3 version and Node ABI. */
export function sqliteBindingPath(node = node24Path()) {
  if (!node) throw new Error('@cairn/node24 has no Node binary for this platform');
  const source = sqliteSourceDir();
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const abi = spawnSync(node, ['-p', 'process.versions.modules'], {
    encoding: 'utf8',
  }).stdout.trim();
  // Outside this package: OpenClaw snapshots a linked plugin's folder and
  // loads files inside it from the copy, which would load the addon twice.
  return join(
    packageDir,
    '..',
    '..',
    'node_modules',
    '.cache',
    'cairn-harness-openclaw',
    `better-sqlite3-${version}-abi${abi}`,
    'better_sqlite3.node',
  );
}

/** Compiles the addon unless it is already cached; returns its path. */
export function buildSqliteForNode24({ force = false, log = console.error } = {}) {
  const node = node24Path();
  const target = sqliteBindingPath(node);
  if (existsSync(target) && !force) return target;
  const nodeDir = resolve(dirname(node), '..');
  if (!existsSync(join(nodeDir, 'include', 'node', 'node.h'))) {
    throw new Error(`${nodeDir} has no include/node headers`);
  }
  const work = `${dirname(target)}.work`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const source = sqliteSourceDir();
  for (const part of ['binding.gyp', 'src', 'deps', 'package.json']) {
    cpSync(join(source, part), join(work, part), { recursive: true });
  }
  const gyp = createRequire(join(packageDir, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
  log(`building better-sqlite3 for ${node} in ${work} (a few minutes)`);
  const result = spawnSync(
    process.execPath,
    [gyp, 'rebuild', '--release', `--nodedir=${nodeDir}`, `--jobs=max`],
    { cwd: work, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`node-gyp failed with status ${result.status}`);
  mkdirSync(dirname(target), { recursive: true });
  renameSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target);
  rmSync(work, { recursive: true, force: true });
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(buildSqliteForNode24({ force: process.argv.includes('--force') }));
}

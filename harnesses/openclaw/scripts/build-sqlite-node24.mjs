#!/usr/bin/env node
// Builds better-sqlite3 (the version @cairn/engine uses) for the Node 24
// binary of @cairn/node24, so the OpenClaw plugin (which runs inside
// OpenClaw on Node >= 24.16) can open Cairn's SQLite stores. The addon goes
// to <repo>/node_modules/.cache/cairn-harness-openclaw/ and is reused when
// present; prints its path on stdout.
//
// Usage: node scripts/build-sqlite-node24.mjs [--force]
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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

// Node 24's node_object_wrap.h makes every ObjectWrap destructor call
// RemoveEnvironmentCleanupHook(Isolate::GetCurrent(), ...), which aborts the
// process (`Assertion failed: (env) != nullptr`) when V8 collects a
// better-sqlite3 Statement while no Node environment is current (the GC
// runs outside any entered context). better-sqlite3 12 wraps its objects
// with node::ObjectWrap and Cairn's engine prepares statements per call: a
// stock build aborted the OpenClaw gateway in about half of the e2e
// sessions, mid-turn. The addon is built against a copy of the
// header without those hooks (the ObjectWrap of Node <= 22, which
// better-sqlite3 12 was written for); its own Addon cleanup still closes
// every database when the environment exits.
const WRAP_PATCH = 'wrapfix1';
const CLEANUP_CALLS = [/^\s*AddCleanupHook\(\);\n/m, /^\s*RemoveCleanupHook\(\);\n/m];

/** Writes the patched node_object_wrap.h beside better_sqlite3.cpp and includes it from there. */
export function patchObjectWrap(work, nodeDir) {
  let header = readFileSync(join(nodeDir, 'include', 'node', 'node_object_wrap.h'), 'utf8');
  for (const call of CLEANUP_CALLS) header = header.replace(call, '');
  writeFileSync(join(work, 'src', 'node_object_wrap.h'), header);
  const main = join(work, 'src', 'better_sqlite3.cpp');
  const source = readFileSync(main, 'utf8');
  if (!source.includes('#include <node_object_wrap.h>')) {
    throw new Error(`${main} no longer includes <node_object_wrap.h>; update patchObjectWrap`);
  }
  writeFileSync(
    main,
    source.replace('#include <node_object_wrap.h>', '#include "node_object_wrap.h"'),
  );
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
    `better-sqlite3-${version}-abi${abi}-${WRAP_PATCH}`,
    'better_sqlite3.node',
  );
}

/**
 * The environment for node-gyp: without npm's and pnpm's `npm_config_*`
 * variables, which node-gyp reads over its own flags (a machine-wide
 * `nodedir=/usr` in npmrc would otherwise compile against the system Node's
 * headers under `pnpm test`).
 */
export function gypEnv(nodeDir, env = process.env) {
  const clean = Object.fromEntries(
    Object.entries(env).filter(([key]) => !/^npm_(config|package_config_node_gyp)_/i.test(key)),
  );
  return { ...clean, npm_config_nodedir: nodeDir };
}

/** Whether the Node 24 binary can load the addon (right ABI, no missing symbols). */
export function loadsUnder(node, binding) {
  const script = `process.dlopen({ exports: {} }, ${JSON.stringify(binding)})`;
  const loaded = spawnSync(node, ['-e', script], { encoding: 'utf8' });
  if (loaded.status === 0) return undefined;
  const lines = loaded.stderr.split('\n');
  return lines.find((line) => /^\w*Error\b/.test(line)) ?? `exit status ${loaded.status}`;
}

/** Compiles the addon unless a cached one loads under Node 24; returns its path. */
export function buildSqliteForNode24({ force = false, log = console.error } = {}) {
  const node = node24Path();
  const target = sqliteBindingPath(node);
  if (existsSync(target) && !force) {
    const problem = loadsUnder(node, target);
    if (!problem) return target;
    log(`the cached addon does not load under ${node} (${problem}); rebuilding`);
    rmSync(target, { force: true });
  }
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
  patchObjectWrap(work, nodeDir);
  const gyp = createRequire(join(packageDir, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
  log(`building better-sqlite3 for ${node} in ${work} (a few minutes)`);
  const result = spawnSync(
    process.execPath,
    [gyp, 'rebuild', '--release', `--nodedir=${nodeDir}`, `--jobs=max`],
    { cwd: work, stdio: ['ignore', 'inherit', 'inherit'], env: gypEnv(nodeDir) },
  );
  if (result.status !== 0) throw new Error(`node-gyp failed with status ${result.status}`);
  const built = join(work, 'build', 'Release', 'better_sqlite3.node');
  const problem = loadsUnder(node, built);
  if (problem)
    throw new Error(`the addon built in ${work} does not load under ${node}: ${problem}`);
  mkdirSync(dirname(target), { recursive: true });
  renameSync(built, target);
  rmSync(work, { recursive: true, force: true });
  return target;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(buildSqliteForNode24({ force: process.argv.includes('--force') }));
}

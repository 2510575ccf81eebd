#!/usr/bin/env node
import { join } from 'node:path';
import { requireWithCompileCache } from './compile-cache';
import { runsProcessPerHook } from './hook-process';
import { handToHookServer } from './hook-server/hook-client';
import { hookServerSocket } from './hook-server/server-socket';
import type { PrereadStdin } from './stdin-read';

interface CliBundle {
  main(importModule: (specifier: string) => Promise<unknown>, preread?: PrereadStdin): void;
}

// The launcher and the CLI are CommonJS: an ESM entry alone costs a few ms
// of loader setup per process, and hooks start a process per event. The
// CLI is one bundled file loaded through a V8 code cache (compile-cache.ts)
// on every Node version; each command keeps its own cache, so a search
// reuses the code a search compiled last time.
const argv = process.argv.slice(2);
const command = argv[0] ?? '';
// `cairn mcp` gets the CLI with the MCP server bundled in; `cairn search`
// a bundle holding the search alone (see search-main.ts); `cairn lifecycle`
// and the hooks of the harnesses that start a process per event (Claude
// Code, Codex: hook-process.ts) a bundle
// holding the lifecycle alone (see hook-main.ts), as does the hook server
// that answers their events (hook-server/). Anything else, a hook of
// another harness included, gets the whole CLI (main.cjs).
const BUNDLES = new Map([
  ['mcp', 'mcp-main.cjs'],
  ['search', 'search-main.cjs'],
  ['lifecycle', 'hook-main.cjs'],
  ['hook-server', 'hook-main.cjs'],
]);
const bundle =
  command === 'hook' && runsProcessPerHook(argv[1])
    ? 'hook-main.cjs'
    : (BUNDLES.get(command) ?? 'main.cjs');
// A hook or lifecycle event keeps a code cache of its own: the cache holds
// the functions the run that wrote it compiled, and each event runs other
// code; so does each harness's hook (its own payload schema and delivery).
const event =
  command === 'hook' ? `${argv[1] ?? ''}-${argv[2] ?? ''}` : command === 'lifecycle' ? argv[1] : '';
const variant = event ? `${command}-${event}` : command;

function run(preread?: PrereadStdin): void {
  const cli = requireWithCompileCache(join(__dirname, bundle), variant) as CliBundle;
  // main.cjs runs through vm.Script, where import() is unavailable; this
  // module is loaded by Node itself, so its import() works on every version.
  cli.main((specifier) => import(specifier), preread);
}

// A hook event goes to the hook server first, when one runs for this build:
// it answers from a warm process with the project already open, so this
// process never loads Cairn (hook-server/hook-client.ts).
if (bundle === 'hook-main.cjs' && command !== 'hook-server') {
  handToHookServer(argv, hookServerSocket(process.env, __dirname), __filename).then(
    (outcome) => {
      if (!outcome.served) run(outcome.preread);
    },
    () => run(),
  );
} else {
  run();
}

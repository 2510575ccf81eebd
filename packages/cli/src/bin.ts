#!/usr/bin/env node
import { join } from 'node:path';
import { requireWithCompileCache } from './compile-cache';

interface CliBundle {
  main(importModule: (specifier: string) => Promise<unknown>): void;
}

// The launcher and the CLI are CommonJS: an ESM entry alone costs a few ms
// of loader setup per process, and hooks start a process per event. The
// CLI is one bundled file loaded through a V8 code cache (compile-cache.ts)
// on every Node version; each command keeps its own cache, so a search
// reuses the code a search compiled last time.
const command = process.argv[2] ?? '';
// `cairn mcp` gets the CLI with the MCP server bundled in; `cairn search`
// a bundle holding the search alone (see search-main.ts); `cairn lifecycle`
// and the hooks of the harnesses that start a process per event (Claude
// Code, Codex: PROCESS_HOOK_DELIVERIES in hook-deliveries.ts) a bundle
// holding the lifecycle alone (see hook-main.ts). Anything else, a hook of
// another harness included, gets the whole CLI (main.cjs).
const BUNDLES = new Map([
  ['mcp', 'mcp-main.cjs'],
  ['search', 'search-main.cjs'],
  ['lifecycle', 'hook-main.cjs'],
]);
const PROCESS_HOOK_HARNESSES = new Set(['claude-code', 'codex']);
const bundle =
  command === 'hook' && PROCESS_HOOK_HARNESSES.has(process.argv[3] ?? '')
    ? 'hook-main.cjs'
    : (BUNDLES.get(command) ?? 'main.cjs');
// A hook or lifecycle event keeps a code cache of its own: the cache holds
// the functions the run that wrote it compiled, and each event runs other
// code; so does each harness's hook (its own payload schema and delivery).
const event =
  command === 'hook'
    ? `${process.argv[3] ?? ''}-${process.argv[4] ?? ''}`
    : command === 'lifecycle'
      ? process.argv[3]
      : '';
const variant = event ? `${command}-${event}` : command;
const cli = requireWithCompileCache(join(__dirname, bundle), variant) as CliBundle;
// main.cjs runs through vm.Script, where import() is unavailable; this
// module is loaded by Node itself, so its import() works on every version.
cli.main((specifier) => import(specifier));

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageOf } from './hook-coverage';

/*
 * Hops between packages on a path: a hop is one package handing over to
 * another, a pair (from, to) where a source file that ran in `from`
 * imports `to` (statically or dynamically, types apart) and code of `to`
 * ran too. The imports across packages are counted apart: each file that
 * ran and the other package it imports (two names of one package, one).
 */

const STATIC_IMPORT = /^\s*(?:import|export)\s+(type\s+)?[^;]*?\sfrom\s+['"](@cairn\/[^'"/]+)/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"](@cairn\/[^'"/]+)/g;
const LOCAL_IMPORT = /^\s*(?:import|export)\s+(type\s+)?[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)/gm;

/**
 * The packages a file imports through a local file that holds no code of
 * its own (`export { x } from '@cairn/core'`): a shim runs nothing, so
 * coverage never lists it, but the hop through it is real.
 */
function throughShims(file: string, source: string, ran: ReadonlySet<string>): Set<string> {
  const names = new Set<string>();
  for (const match of source.matchAll(LOCAL_IMPORT)) {
    if (match[1]) continue;
    const target = [`${match[2]}.ts`, join(match[2]!, 'index.ts')]
      .map((path) => join(dirname(file), path))
      .find((path) => existsSync(path));
    if (!target || ran.has(target)) continue;
    const shim = readFileSync(target, 'utf8');
    if (!isShim(shim)) continue;
    for (const name of importedPackages(shim)) names.add(name);
  }
  return names;
}

/** A file of re-exports and comments alone: no declaration, no statement of its own. */
function isShim(source: string): boolean {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return !/\b(function|const|let|var|class|enum)\b/.test(code) && /\bexport\b/.test(code);
}

/** The packages a source file imports at run time, by npm name. */
export function importedPackages(source: string): Set<string> {
  const names = new Set<string>();
  for (const match of source.matchAll(STATIC_IMPORT)) if (!match[1]) names.add(match[2]!);
  for (const match of source.matchAll(DYNAMIC_IMPORT)) names.add(match[1]!);
  return names;
}

/** Among `files` (absolute paths under `root`): the imports across Cairn's packages, and the hops (package pairs). */
export function packageHops(
  root: string,
  files: Iterable<string>,
): { hops: number; edges: string[] } {
  const own = [...files].filter((file) => packageOf(root, file).cairn);
  const ran = new Set(own.map((file) => packageOf(root, file).name));
  const ranFiles = new Set(own);
  let hops = 0;
  const edges = new Set<string>();
  for (const file of own) {
    const home = packageOf(root, file).name;
    const source = readFileSync(file, 'utf8');
    const imported = new Set([
      ...importedPackages(source),
      ...throughShims(file, source, ranFiles),
    ]);
    for (const name of imported) {
      if (name === home || !ran.has(name)) continue;
      hops += 1;
      edges.add(`${home} -> ${name}`);
    }
  }
  return { hops, edges: [...edges].sort() };
}

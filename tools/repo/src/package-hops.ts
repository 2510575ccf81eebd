import { readFileSync } from 'node:fs';
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
  let hops = 0;
  const edges = new Set<string>();
  for (const file of own) {
    const home = packageOf(root, file).name;
    for (const name of importedPackages(readFileSync(file, 'utf8'))) {
      if (name === home || !ran.has(name)) continue;
      hops += 1;
      edges.add(`${home} -> ${name}`);
    }
  }
  return { hops, edges: [...edges].sort() };
}

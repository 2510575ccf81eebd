import { basename, resolve } from 'node:path';
import { sha256Hex } from './node-crypto';

/**
 * The default `repo` partition of a project in a shared store (LanceDB,
 * Qdrant, Mem0): the folder name and a hash of the absolute path, so two
 * checkouts named alike never share entries.
 */
export function defaultProjectRepo(rootDir: string): string {
  const root = resolve(rootDir);
  return `${basename(root) || 'root'}-${sha256Hex(root).slice(0, 10)}`;
}

import { promises as fsp } from 'node:fs';
// `fsp` is read on first use: importing node:fs/promises loads readline up front (~1.5 ms a hook).
import { join } from 'node:path';
import {
  CAIRN_INDEX_DIR,
  CAIRN_STATE_DIR,
  cairnIndexPath,
  cairnStatePath,
  isRealFolder,
  MEMORY_WORKSPACE_PATH,
  memoryWorkspacePath,
} from '@cairn/core';

/** Bytes on disk of one store of a project, for `cairn doctor`. */
export interface StoreSize {
  /** `memory` (the markdown, source of truth), `lineage` (Tier 3), `heads`, `state` (the rest of .cairn/state) or `index` (derived). */
  store: 'memory' | 'lineage' | 'heads' | 'state' | 'index';
  /** Project-relative folder or file. */
  path: string;
  bytes: number;
  files: number;
}

interface Tally {
  bytes: number;
  files: number;
}

/** Adds up regular files below `dir` (links are skipped, never followed). */
async function tally(dir: string, skip: (name: string) => boolean = () => false): Promise<Tally> {
  const total: Tally = { bytes: 0, files: 0 };
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (skip(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await tally(path);
      total.bytes += inner.bytes;
      total.files += inner.files;
    } else if (entry.isFile()) {
      total.bytes += (await fsp.lstat(path).catch(() => ({ size: 0 }))).size;
      total.files += 1;
    }
  }
  return total;
}

/** A SQLite database with its -wal, -shm and -journal files. */
async function database(stateDir: string, name: string): Promise<Tally> {
  const total: Tally = { bytes: 0, files: 0 };
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const info = await fsp.lstat(join(stateDir, `${name}${suffix}`)).catch(() => undefined);
    if (!info?.isFile()) continue;
    total.bytes += info.size;
    total.files += 1;
  }
  return total;
}

const isDatabase = (db: string) => (name: string) =>
  name === db || ['-wal', '-shm', '-journal'].some((suffix) => name === `${db}${suffix}`);

/** The size of each store under `.cairn/`: what grows, and what can be rebuilt (index). */
export async function storeSizes(rootDir: string): Promise<StoreSize[]> {
  const state = cairnStatePath(rootDir);
  const isLineage = isDatabase('lineage.db');
  const isHeads = isDatabase('heads.db');
  // A store folder reached through a link counts nothing: its size is another folder's.
  const real = (relDir: string) => isRealFolder(rootDir, relDir);
  const empty = async () => ({ bytes: 0, files: 0 });
  const stateReal = real(`.cairn/${CAIRN_STATE_DIR}`);
  const [memory, lineage, heads, rest, index] = await Promise.all([
    real(MEMORY_WORKSPACE_PATH) ? tally(memoryWorkspacePath(rootDir)) : empty(),
    stateReal ? database(state, 'lineage.db') : empty(),
    stateReal ? database(state, 'heads.db') : empty(),
    stateReal ? tally(state, (name) => isLineage(name) || isHeads(name)) : empty(),
    real(`.cairn/${CAIRN_INDEX_DIR}`) ? tally(cairnIndexPath(rootDir)) : empty(),
  ]);
  return [
    { store: 'memory', path: '.cairn/memory', ...memory },
    { store: 'lineage', path: '.cairn/state/lineage.db', ...lineage },
    { store: 'heads', path: '.cairn/state/heads.db', ...heads },
    { store: 'state', path: '.cairn/state', ...rest },
    { store: 'index', path: '.cairn/index', ...index },
  ];
}

/** `1.2 MB`, `40 kB`, `512 B`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} kB`;
  return `${bytes} B`;
}

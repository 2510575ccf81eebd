import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export type StoreName = 'memory' | 'lineage' | 'heads' | 'index' | 'other';

export interface StorageFigures {
  totalBytes: number;
  files: number;
  stores: Record<StoreName, number>;
}

/** Which store a path under `.cairn/` belongs to (SQLite side files count with their database). */
export function storeOf(relativePath: string): StoreName {
  const parts = relativePath.split(sep).join('/').split('/');
  if (parts[0] === 'memory') return 'memory';
  if (parts[0] === 'index') return 'index';
  if (parts[0] === 'state' && parts.length === 2) {
    if (/^lineage\.db(-wal|-shm|-journal)?$/.test(parts[1]!)) return 'lineage';
    if (/^heads\.db(-wal|-shm|-journal)?$/.test(parts[1]!)) return 'heads';
  }
  return 'other';
}

async function walk(dir: string, visit: (path: string, bytes: number) => void): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, visit);
    else if (entry.isFile()) visit(path, (await lstat(path)).size);
  }
}

/**
 * Bytes of every file under `.cairn/`, as the user's disk holds them once
 * the sessions ended (no checkpoint, no vacuum), by store.
 */
export async function measureStorage(rootDir: string): Promise<StorageFigures> {
  const cairnDir = join(rootDir, '.cairn');
  const figures: StorageFigures = {
    totalBytes: 0,
    files: 0,
    stores: { memory: 0, lineage: 0, heads: 0, index: 0, other: 0 },
  };
  await walk(cairnDir, (path, bytes) => {
    figures.totalBytes += bytes;
    figures.files += 1;
    figures.stores[storeOf(relative(cairnDir, path))] += bytes;
  });
  return figures;
}

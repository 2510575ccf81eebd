import { type ChunkOptions, sha256Hex } from '@cairn/core';
import type { IndexSource, SearchIndexRefreshStats } from '@cairn/index-kit';
import { chunkFile } from '@cairn/index-kit';
import type { IndexStore, PoolChanges } from './index-store';

function contentHash(bytes: Buffer): string {
  return sha256Hex(bytes);
}

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: the global
 * `performance` loads perf_hooks on first touch (ten internal modules, about
 * 1.3 ms of a `cairn search` process, which refreshes the index each time).
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * Compares the source with what the index holds: unchanged size and mtime
 * is skipped unread, a moved stat with the same hash only updates the stat,
 * anything else is re-chunked. `full` ignores what the index holds.
 */
async function collectChanges(
  store: IndexStore,
  source: IndexSource,
  chunkOptions: ChunkOptions,
  full: boolean,
): Promise<{ changes: PoolChanges; scanned: number; read: number }> {
  const known = full ? new Map() : store.filesOf(source.pool);
  const listed = source.list();
  const changes: PoolChanges = { pool: source.pool, restat: [], updates: [], removed: [] };
  let read = 0;
  const present = new Set<string>();
  for (const file of listed) {
    const before = known.get(file.path);
    if (before && before.size === file.bytes && before.mtimeMs === file.mtimeMs) {
      present.add(file.path);
      continue;
    }
    const bytes = await source.read(file.path);
    if (!bytes) continue;
    read += 1;
    present.add(file.path);
    const stat = {
      path: file.path,
      size: file.bytes,
      mtimeMs: file.mtimeMs,
      hash: contentHash(bytes),
    };
    if (before?.hash === stat.hash) {
      changes.restat.push(stat);
    } else {
      const chunks = chunkFile(bytes.toString('utf8'), file.path, chunkOptions);
      changes.updates.push({ ...stat, chunks });
    }
  }
  for (const path of known.keys()) if (!present.has(path)) changes.removed.push(path);
  return { changes, scanned: listed.length, read };
}

/** Brings one pool of the index up to date with its source, in one transaction. */
export async function refreshSource(
  store: IndexStore,
  source: IndexSource,
  options: {
    chunk: ChunkOptions;
    rebuild?: boolean;
    /** Told what was written, after the transaction committed (vectors follow the chunks). */
    onApplied?: (changes: PoolChanges) => void;
  },
): Promise<SearchIndexRefreshStats> {
  const started = monotonicMs();
  const full = options.rebuild === true;
  const { changes, scanned, read } = await collectChanges(store, source, options.chunk, full);
  const dirty =
    full || changes.restat.length > 0 || changes.updates.length > 0 || changes.removed.length > 0;
  const chunksWritten = dirty ? store.apply({ ...changes, reset: full }) : 0;
  if (dirty) options.onApplied?.({ ...changes, reset: full });
  return {
    filesScanned: scanned,
    filesRead: read,
    filesChanged: changes.updates.length,
    filesRemoved: changes.removed.length,
    chunksWritten,
    ms: Math.round((monotonicMs() - started) * 100) / 100,
  };
}

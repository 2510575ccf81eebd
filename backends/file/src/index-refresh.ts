import { type ChunkOptions, monotonicMs, sha256Hex } from '@cairn/core';
import type { IndexSource, SearchIndexRefreshStats, SourceFile } from '@cairn/index-kit';
import { chunkFile, renderedViews } from '@cairn/index-kit';
import type { IndexedFile, IndexStore, PoolChanges } from './index-store';

/**
 * What may have changed in a source since the previous call (the engine's
 * workspace watch: its own writes and the kernel's events), so that a
 * long-lived process refreshes without a stat of every file.
 */
export interface SourceChangeFeed {
  /** Paths that may have changed, or undefined when every file must be listed again. */
  changes(): Promise<Set<string> | undefined>;
  /** `path` as the source's `list()` would give it, or undefined when it would not list it. */
  stat(path: string): SourceFile | undefined;
}

const feeds = new WeakMap<IndexSource, SourceChangeFeed>();
/** What each pool of a store held after this process's last refresh of it. */
const held = new WeakMap<IndexStore, Map<string, Map<string, IndexedFile>>>();

/** Refreshes of `source` then look only at the files `feed` names (after one full listing). */
export function followSourceChanges(source: IndexSource, feed: SourceChangeFeed): void {
  feeds.set(source, feed);
}

/** The files to compare and what the index holds of them: the changed ones, or all. */
async function candidates(store: IndexStore, source: IndexSource, full: boolean) {
  const feed = full ? undefined : feeds.get(source);
  const changed = await feed?.changes();
  const before = held.get(store)?.get(source.pool);
  if (!feed || !changed || !before) {
    return {
      known: full ? new Map<string, IndexedFile>() : store.filesOf(source.pool),
      listed: source.list(),
      before: undefined,
    };
  }
  const known = new Map<string, IndexedFile>();
  const listed: SourceFile[] = [];
  for (const path of changed) {
    const file = before.get(path);
    if (file) known.set(path, file);
    const stat = feed.stat(path);
    if (stat) listed.push(stat);
  }
  return { known, listed, before };
}

function contentHash(bytes: Buffer): string {
  return sha256Hex(bytes);
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
) {
  const { known, listed, before } = await candidates(store, source, full);
  const changes: PoolChanges = { pool: source.pool, restat: [], updates: [], removed: [] };
  let read = 0;
  const present = new Map<string, IndexedFile>();
  for (const file of listed) {
    const was = known.get(file.path);
    if (was && was.size === file.bytes && was.mtimeMs === file.mtimeMs) {
      present.set(file.path, was);
      continue;
    }
    const bytes = await source.read(file.path);
    if (!bytes) continue;
    read += 1;
    const stat = {
      path: file.path,
      size: file.bytes,
      mtimeMs: file.mtimeMs,
      hash: contentHash(bytes),
    };
    present.set(file.path, stat);
    if (was?.hash === stat.hash) {
      changes.restat.push(stat);
    } else {
      const text = bytes.toString('utf8');
      const chunks = source.chunk
        ? await source.chunk(text, file.path)
        : chunkFile(text, file.path, { ...chunkOptions, records: source.records });
      changes.updates.push({ ...stat, chunks, views: renderedViews(text, file.path, chunks) });
    }
  }
  for (const path of known.keys()) if (!present.has(path)) changes.removed.push(path);
  // What the pool holds once these changes are applied (kept only when they were).
  const after = new Map(before ?? []);
  for (const path of changes.removed) after.delete(path);
  for (const [path, { size, mtimeMs, hash }] of present) after.set(path, { size, mtimeMs, hash });
  return { changes, scanned: listed.length, read, after };
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
  const pools = held.get(store) ?? new Map<string, Map<string, IndexedFile>>();
  held.set(store, pools);
  const { changes, scanned, read, after } = await collectChanges(
    store,
    source,
    options.chunk,
    full,
  );
  const dirty =
    full || changes.restat.length > 0 || changes.updates.length > 0 || changes.removed.length > 0;
  // Forgotten until the changes are applied: a failed apply lists every file next time.
  pools.delete(source.pool);
  const chunksWritten = dirty ? store.apply({ ...changes, reset: full }) : 0;
  pools.set(source.pool, after);
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

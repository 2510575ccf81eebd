import type { ChunkOptions } from '@cairn/core';
import {
  hasChanges,
  type IndexSource,
  type PoolSink,
  renderedViews,
  type SearchIndexRefreshStats,
  type SourceFile,
  syncPool,
} from '@cairn/index-kit';
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

/**
 * The source and stored states to compare: only the files the change feed
 * names (and what the index held of them) once the pool was listed in
 * full by this process, else every file.
 */
async function candidates(store: IndexStore, source: IndexSource, full: boolean) {
  const feed = full ? undefined : feeds.get(source);
  const changed = await feed?.changes();
  const before = held.get(store)?.get(source.pool);
  if (!feed || !changed || !before) {
    return { source, known: () => store.filesOf(source.pool), before: undefined };
  }
  const known = new Map<string, IndexedFile>();
  const listed: SourceFile[] = [];
  for (const path of changed) {
    const file = before.get(path);
    if (file) known.set(path, file);
    const stat = feed.stat(path);
    if (stat) listed.push(stat);
  }
  return { source: { ...source, list: () => listed }, known: () => known, before };
}

/** The SQLite index as a sink: one transaction per refresh, skipped when nothing changed. */
function storeSink(
  store: IndexStore,
  known: () => ReadonlyMap<string, IndexedFile>,
  onApplied?: (changes: PoolChanges) => void,
): PoolSink {
  return {
    fileStates: known,
    write(synced) {
      if (!hasChanges(synced)) return { chunksWritten: 0 };
      const changes: PoolChanges = {
        ...synced,
        updates: synced.updates.map(({ text, ...file }) => ({
          ...file,
          views: renderedViews(text, file.path, file.chunks),
        })),
      };
      const chunksWritten = store.apply(changes);
      onApplied?.(changes);
      return { chunksWritten };
    },
  };
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
  const full = options.rebuild === true;
  const pools = held.get(store) ?? new Map<string, Map<string, IndexedFile>>();
  held.set(store, pools);
  const picked = await candidates(store, source, full);
  // Forgotten until the changes are applied: a failed apply lists every file next time.
  pools.delete(source.pool);
  const sink = storeSink(store, picked.known, options.onApplied);
  const { stats, states, changes } = await syncPool(picked.source, sink, {
    chunk: options.chunk,
    full,
  });
  // What the pool holds now: the files compared, over what it held of the others.
  const after = new Map(picked.before ?? []);
  for (const path of changes.removed) after.delete(path);
  for (const [path, state] of states) after.set(path, state);
  pools.set(source.pool, after);
  return stats;
}

import { rmSync, statSync } from 'node:fs';
import { CairnError, type ChunkOptions, prepareStateDirectory } from '@cairn/core';
import {
  hasChanges,
  type IndexSource,
  type PoolSink,
  renderedViews,
  type SearchIndexRefreshStats,
  type SourceFile,
  syncPool,
} from '@cairn/index-kit';
import { isDamagedDatabase, loadSqlite, openSqlite } from '@cairn/sqlite';
import { type ChunkHit, type ChunkQuery, queryChunks } from './index-query';
import { SEARCH_INDEX_SCHEMA_VERSION } from './index-schema';
import { type IndexedFile, IndexStore, type PoolChanges } from './index-store';

/** A committed refresh of one pool, or a new connection (everything may have changed). */
export type IndexChange = { changes: PoolChanges } | { reconnected: true };
export type IndexChangeListener = (change: IndexChange) => void;

/** Deletes a database file and its WAL companions. */
export function removeDatabaseFiles(dbPath: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
}

/** Opens (or creates) the database; a damaged file is derived data, so it is replaced. */
function openStore(dbPath: string, format: string): IndexStore {
  // Fails with BACKEND_UNAVAILABLE before anything is created when SQLite cannot load.
  loadSqlite('the search index (search falls back to a plain scan meanwhile)');
  prepareStateDirectory(dbPath);
  const attempt = () => {
    const db = openSqlite(dbPath, 'the search index');
    try {
      return new IndexStore(db, format);
    } catch (error) {
      db.close();
      throw error;
    }
  };
  try {
    return attempt();
  } catch (error) {
    if (!isDamagedDatabase(error)) throw error;
    removeDatabaseFiles(dbPath);
    return attempt();
  }
}

function fileIdentity(path: string): string | undefined {
  const info = statSync(path, { throwIfNoEntry: false });
  return info ? `${info.dev}:${info.ino}` : undefined;
}

/**
 * One SQLite index file: refreshes of its pools run one at a time, queries
 * are synchronous reads on one connection, and a file deleted or replaced
 * under it is reopened (and so rebuilt) on the next call.
 */
export class IndexDatabase {
  readonly dbPath: string;
  private readonly chunkOptions: ChunkOptions;
  private readonly format: string;
  private store: IndexStore | undefined;
  private identity: string | undefined;
  private closed = false;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<IndexChangeListener>();

  constructor(dbPath: string, chunkOptions: Required<ChunkOptions>) {
    this.dbPath = dbPath;
    this.chunkOptions = chunkOptions;
    this.format = `v${SEARCH_INDEX_SCHEMA_VERSION}:chunk=${chunkOptions.maxTokens}/${chunkOptions.overlapTokens}`;
    this.connect();
  }

  private connect(): IndexStore {
    this.store = openStore(this.dbPath, this.format);
    this.identity = fileIdentity(this.dbPath);
    // A new connection may be a new file: whatever was derived from the old one is stale.
    for (const listener of this.listeners) listener({ reconnected: true });
    return this.store;
  }

  /** Hears about every committed change (and reconnects); returns the unsubscribe. */
  onChange(listener: IndexChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The open store, reconnecting when the file was replaced. */
  connection(): IndexStore {
    return this.current();
  }

  /** Runs `task` in the queue refreshes use, so it never interleaves with one. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.serial(task);
  }

  private current(): IndexStore {
    if (this.closed) {
      throw new CairnError('INTERNAL', `The search index ${this.dbPath} is closed`, {
        hint: 'open a new one with openSearchIndex()',
      });
    }
    if (this.store && fileIdentity(this.dbPath) === this.identity) return this.store;
    this.store?.close();
    this.store = undefined;
    return this.connect();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Brings one pool up to date; `rebuild` drops every table first. */
  refreshPool(source: IndexSource, rebuild = false): Promise<SearchIndexRefreshStats> {
    return this.serial(() =>
      refreshSource(this.current(), source, {
        chunk: this.chunkOptions,
        rebuild,
        onApplied: (changes) => {
          for (const listener of this.listeners) listener({ changes });
        },
      }),
    );
  }

  /** Ranks the chunks of one pool; refresh it first. */
  queryPool(query: ChunkQuery): ChunkHit[] {
    return queryChunks(this.current(), query);
  }

  /** Forgets every pool not in `keep`. */
  prunePools(keep: string[]): void {
    const store = this.current();
    const wanted = new Set(keep);
    for (const pool of store.pools()) {
      if (wanted.has(pool)) continue;
      store.dropPool(pool);
      const changes = { pool, restat: [], updates: [], removed: [], reset: true };
      for (const listener of this.listeners) listener({ changes });
    }
  }

  close(): void {
    this.closed = true;
    this.store?.close();
    this.store = undefined;
  }
}

/*
 * Refreshing a pool: the generic sync (index-kit's `syncPool`) into this
 * database, narrowed to what a change feed names once the pool was listed.
 */

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

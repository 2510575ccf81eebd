import { rmSync, statSync } from 'node:fs';
import { CairnError, type ChunkOptions, prepareStateDirectory } from '@cairn/core';
import type { IndexSource, SearchIndexRefreshStats } from '@cairn/index-kit';
import { isDamagedDatabase, loadSqlite, openSqlite } from '@cairn/sqlite';
import { type ChunkHit, type ChunkQuery, queryChunks } from './index-query';
import { refreshSource } from './index-refresh';
import { SEARCH_INDEX_SCHEMA_VERSION } from './index-schema';
import { IndexStore, type PoolChanges } from './index-store';

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

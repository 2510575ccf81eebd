import { type Embedder, embedderKey } from '@cairn/core';
import { contextBefore } from './chunk-context';
import type { IndexChange, IndexDatabase } from './index-database';
import type { IndexStore } from './index-store';
import { checkedVectors, PoolVectors } from './pool-vectors';

/** Texts per embedder call when the embedder does not batch itself. */
export const EMBED_BATCH = 64;
const PATHS_PER_QUERY = 200;

interface MissingRow {
  rowid: number;
  path: string;
  text: string;
  before: string | null;
}

/**
 * A chunk's vector embeds the end of the chunk before it in the same file
 * (contextBefore, as the keyword index's context column): a reply is found
 * through the question before it, a note through its heading (LoCoMo, hash
 * embedder: +1.1 R@10). Vectors depend only on their file's content, so
 * refreshes stay exact.
 */
function embeddingText(row: MissingRow): string {
  if (!row.before) return row.text;
  return `${contextBefore(row.before)}\n${row.text}`;
}

/** What a pool needs before its vectors can be trusted. */
type Pending = 'all' | Set<string>;

/**
 * The vectors of one embedder in one index file, stored beside the FTS
 * tables (`chunk_vectors`, float32 blobs keyed by chunk row and embedder
 * key) and mirrored in memory per pool for brute-force cosine search.
 * Chunks written by a refresh are embedded on the next `sync`; vectors of
 * any other embedder key are deleted the first time this one syncs, so two
 * models never mix. Writes by other processes are noticed through SQLite's
 * `data_version` and reload the mirror.
 */
export class VectorStore {
  readonly key: string;
  private readonly database: IndexDatabase;
  /** The latest embedder object given for this key (they all make the same vectors). */
  embedder: Embedder;
  private readonly pools = new Map<string, PoolVectors>();
  private readonly pending = new Map<string, Pending>();
  private dataVersion: number | undefined;
  private staleChecked = false;

  constructor(database: IndexDatabase, embedder: Embedder) {
    this.database = database;
    this.embedder = embedder;
    this.key = embedderKey(embedder);
    database.onChange((change) => this.changed(change));
  }

  private changed(change: IndexChange): void {
    if ('reconnected' in change || change.changes.reset) {
      this.forget();
      return;
    }
    const { pool, updates, removed } = change.changes;
    const pending = this.pending.get(pool);
    if (pending === 'all' || !this.pools.has(pool)) return;
    const paths = pending ?? new Set<string>();
    for (const file of updates) paths.add(file.path);
    for (const path of removed) paths.add(path);
    this.pending.set(pool, paths);
  }

  /** Forgets the mirror: another embedder key took over this index file. */
  forget(): void {
    this.pools.clear();
    this.pending.clear();
    this.staleChecked = false;
  }

  /** Deletes vectors of other embedder keys, once per connection. */
  private dropStale(store: IndexStore): void {
    if (this.staleChecked) return;
    store.db.prepare('DELETE FROM chunk_vectors WHERE model <> ?').run(this.key);
    this.staleChecked = true;
  }

  /** Another connection committed since we last looked: reload every mirror. */
  private noticeOtherWriters(store: IndexStore): void {
    const version = store.db.pragma('data_version', { simple: true }) as number;
    if (this.dataVersion !== undefined && version !== this.dataVersion) this.pools.clear();
    this.dataVersion = version;
  }

  /**
   * Embeds every chunk of `pool` that has no vector of this embedder yet,
   * and brings the in-memory mirror up to date. Throws what the embedder
   * throws; what was stored before the failure is kept.
   */
  sync(pool: string): Promise<PoolVectors> {
    return this.database.exclusive(async () => {
      const store = this.database.connection();
      this.dropStale(store);
      this.noticeOtherWriters(store);
      let vectors = this.pools.get(pool);
      let paths: string[] | undefined;
      if (!vectors) {
        vectors = PoolVectors.load(store, pool, this.key, this.embedder.dimensions);
        this.pools.set(pool, vectors);
        this.pending.set(pool, 'all');
      }
      const pending = this.pending.get(pool);
      if (pending === undefined) return vectors;
      if (pending !== 'all') {
        paths = [...pending];
        vectors.reloadPaths(store, pool, this.key, pending);
      }
      await this.embedMissing(store, vectors, pool, paths);
      this.pending.delete(pool);
      this.dataVersion = store.db.pragma('data_version', { simple: true }) as number;
      return vectors;
    });
  }

  private missing(store: IndexStore, pool: string, paths: string[] | undefined): MissingRow[] {
    // The chunk before it in the same file is embedded along (see contextBefore).
    const base = `SELECT c.rowid AS rowid, c.path AS path, c.text AS text, (
        SELECT p.text FROM chunks p WHERE p.pool = c.pool AND p.path = c.path
          AND p.start_line < c.start_line ORDER BY p.start_line DESC LIMIT 1) AS before
      FROM chunks c
      WHERE c.pool = ? AND NOT EXISTS (
        SELECT 1 FROM chunk_vectors v WHERE v.chunk_rowid = c.rowid AND v.model = ?)`;
    if (!paths) return store.query(`${base} ORDER BY c.rowid`).all(pool, this.key) as MissingRow[];
    const rows: MissingRow[] = [];
    for (let at = 0; at < paths.length; at += PATHS_PER_QUERY) {
      const slice = paths.slice(at, at + PATHS_PER_QUERY);
      const sql = `${base} AND c.path IN (${slice.map(() => '?').join(', ')}) ORDER BY c.rowid`;
      rows.push(...(store.query(sql).all(pool, this.key, ...slice) as MissingRow[]));
    }
    return rows;
  }

  private async embedMissing(
    store: IndexStore,
    vectors: PoolVectors,
    pool: string,
    paths: string[] | undefined,
  ): Promise<void> {
    const rows = this.missing(store, pool, paths);
    // The chunk must still hold the text that was embedded (another process may have rewritten it).
    const insert = store.query(
      `INSERT OR REPLACE INTO chunk_vectors (chunk_rowid, model, vector)
       SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM chunks WHERE rowid = ? AND text = ?)`,
    );
    for (let at = 0; at < rows.length; at += EMBED_BATCH) {
      const batch = rows.slice(at, at + EMBED_BATCH);
      const embedded = checkedVectors(
        this.embedder,
        await this.embedder.embed(batch.map(embeddingText)),
        batch.length,
      );
      store.db.transaction(() => {
        batch.forEach((row, i) => {
          const blob = Buffer.from(embedded[i]!.buffer);
          const stored = insert.run(row.rowid, this.key, blob, row.rowid, row.text).changes > 0;
          if (stored) vectors.put(row.rowid, row.path, embedded[i]!);
        });
      })();
    }
  }

  /** The mirror of a pool as last synced (undefined before the first sync). */
  mirror(pool: string): PoolVectors | undefined {
    return this.pools.get(pool);
  }
}

/** One vector store per (index file, embedder key), so every caller shares the mirror. */
const stores = new WeakMap<IndexDatabase, Map<string, VectorStore>>();

export function vectorStoreFor(database: IndexDatabase, embedder: Embedder): VectorStore {
  let byKey = stores.get(database);
  if (!byKey) {
    byKey = new Map();
    stores.set(database, byKey);
  }
  const key = embedderKey(embedder);
  let store = byKey.get(key);
  if (!store) {
    // The new key deletes the others' vectors on its first sync.
    for (const sibling of byKey.values()) sibling.forget();
    store = new VectorStore(database, embedder);
    byKey.set(key, store);
  }
  store.embedder = embedder;
  return store;
}

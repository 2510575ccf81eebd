import {
  type Embedder,
  embedderKey,
  prepareStateDirectory,
  redactSecrets,
  sha256Hex,
} from '@cairn/core';
import { openSqlite, type SqliteDatabase } from '@cairn/sqlite';

/** The cache file, under `.cairn/index/` (derived data: deleting it only costs new requests). */
export const EMBEDDING_CACHE_FILENAME = 'embeddings.sqlite';

export interface CachedEmbedder extends Embedder {
  /** Texts answered from the cache and texts sent to the provider, since creation. */
  readonly stats: { hits: number; misses: number };
  close(): void;
}

function textHash(text: string): string {
  return sha256Hex(text);
}

function openCache(path: string): SqliteDatabase {
  prepareStateDirectory(path);
  const db = openSqlite(path, 'the embedding cache');
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS embeddings (
    embedder TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (embedder, text_hash)
  ) WITHOUT ROWID`);
  return db;
}

/**
 * Wraps an embedder with a persistent cache keyed by provider, model,
 * dimensions (the embedder key) and the SHA-256 of the text: re-chunking
 * a file, rebuilding the index or restarting never pays twice for a text.
 * Only the misses of a call go to the provider, in one call. The database
 * opens on first use. Texts are redacted (redactSecrets) before they are
 * hashed or embedded: a secret is neither sent to the provider nor the
 * source of a key on disk, and a text that differs only by its secret
 * shares one entry.
 */
export function createCachedEmbedder(inner: Embedder, cachePath: string): CachedEmbedder {
  const key = embedderKey(inner);
  const stats = { hits: 0, misses: 0 };
  let db: SqliteDatabase | undefined;
  const connection = () => {
    db ??= openCache(cachePath);
    return db;
  };
  return {
    id: inner.id,
    model: inner.model,
    dimensions: inner.dimensions,
    stats,
    async embed(input) {
      const texts = input.map((text) => redactSecrets(text).text);
      const cache = connection();
      const select = cache
        .prepare('SELECT vector FROM embeddings WHERE embedder = ? AND text_hash = ?')
        .pluck();
      const hashes = texts.map(textHash);
      const out: (number[] | undefined)[] = hashes.map((hash) => {
        const blob = select.get(key, hash) as Buffer | undefined;
        if (!blob || blob.byteLength !== inner.dimensions * 4) return undefined;
        return Array.from(
          new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)),
        );
      });
      const missing = out.flatMap((vector, i) => (vector ? [] : [i]));
      stats.hits += texts.length - missing.length;
      stats.misses += missing.length;
      if (missing.length === 0) return out as number[][];
      const fresh = await inner.embed(missing.map((i) => texts[i]!));
      const insert = cache.prepare(
        'INSERT OR REPLACE INTO embeddings (embedder, text_hash, vector) VALUES (?, ?, ?)',
      );
      cache.transaction(() => {
        missing.forEach((index, n) => {
          const vector = fresh[n];
          // Only well-formed vectors are kept; the caller checks and reports the rest.
          if (vector?.length !== inner.dimensions) return;
          insert.run(key, hashes[index], Buffer.from(Float32Array.from(vector).buffer));
        });
      })();
      missing.forEach((index, n) => {
        out[index] = fresh[n];
      });
      return out as number[][];
    },
    close() {
      db?.close();
      db = undefined;
    },
  };
}

import { CairnError, type Embedder, embedderKey } from '@cairn/core';
import type { IndexStore } from './index-store';

/** A vector scaled to length 1, so cosine similarity is a dot product. */
export function unitVector(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let sum = 0;
  for (let i = 0; i < out.length; i += 1) sum += out[i]! * out[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < out.length; i += 1) out[i]! /= norm;
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Checks what an embedder returned (one vector per text, each of the
 * declared size, finite numbers) and normalizes it; anything else is a
 * BACKEND_UNAVAILABLE naming the embedder, and nothing is stored.
 */
export function checkedVectors(
  embedder: Embedder,
  vectors: unknown,
  count: number,
): Float32Array[] {
  const fail = (reason: string) =>
    new CairnError('BACKEND_UNAVAILABLE', `Embedder ${embedderKey(embedder)} ${reason}`, {
      hint: 'check the embedder settings (embedder.model, embedder.dimensions) against what the provider serves',
      details: { embedder: embedderKey(embedder), reason },
    });
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw fail(
      `returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${count} texts`,
    );
  }
  return vectors.map((vector: unknown) => {
    if (!Array.isArray(vector) && !ArrayBuffer.isView(vector)) throw fail('returned a non-vector');
    const values = vector as ArrayLike<number>;
    if (values.length !== embedder.dimensions) {
      throw fail(`returned ${values.length} dimensions, expected ${embedder.dimensions}`);
    }
    for (let i = 0; i < values.length; i += 1) {
      if (!Number.isFinite(values[i])) throw fail('returned a non-finite number');
    }
    return unitVector(values);
  });
}

export interface NearestHit {
  rowid: number;
  similarity: number;
}

/**
 * The vectors of one pool in memory: one contiguous Float32Array (slots of
 * `dimensions`), freed slots reused. Brute-force cosine over it is a few
 * milliseconds for tens of thousands of chunks.
 */
interface StoredVector {
  rowid: number;
  path: string;
  vector: Buffer;
}

const PATHS_PER_QUERY = 200;

/** Stored vectors of `model` for the chunks of `pool`, of every file or only of `paths`. */
function storedVectors(
  store: IndexStore,
  pool: string,
  model: string,
  paths?: string[],
): StoredVector[] {
  const base = `SELECT v.chunk_rowid AS rowid, c.path AS path, v.vector AS vector
    FROM chunk_vectors v JOIN chunks c ON c.rowid = v.chunk_rowid
    WHERE v.model = ? AND c.pool = ?`;
  if (!paths) return store.query(base).all(model, pool) as StoredVector[];
  const rows: StoredVector[] = [];
  for (let at = 0; at < paths.length; at += PATHS_PER_QUERY) {
    const slice = paths.slice(at, at + PATHS_PER_QUERY);
    const sql = `${base} AND c.path IN (${slice.map(() => '?').join(', ')})`;
    rows.push(...(store.query(sql).all(model, pool, ...slice) as StoredVector[]));
  }
  return rows;
}

export class PoolVectors {
  readonly dimensions: number;
  private data: Float32Array;
  private rowids: number[] = [];
  private paths: string[] = [];
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];

  constructor(dimensions: number, capacity = 64) {
    this.dimensions = dimensions;
    this.data = new Float32Array(dimensions * Math.max(capacity, 1));
  }

  /** Reads every stored vector of `model` for the chunks of `pool`. */
  static load(store: IndexStore, pool: string, model: string, dimensions: number): PoolVectors {
    const rows = storedVectors(store, pool, model);
    const vectors = new PoolVectors(dimensions, rows.length);
    vectors.putRows(rows);
    return vectors;
  }

  /**
   * Replaces the vectors of chunks in these files with what is stored: a
   * refresh keeps the rows (and vectors) of unchanged chunks, and deletes
   * the vectors of chunks it rewrote.
   */
  reloadPaths(store: IndexStore, pool: string, model: string, paths: ReadonlySet<string>): void {
    this.removePaths(paths);
    if (paths.size > 0) this.putRows(storedVectors(store, pool, model, [...paths]));
  }

  private putRows(rows: StoredVector[]): void {
    for (const row of rows) {
      if (row.vector.byteLength !== this.dimensions * 4) continue;
      const copy = new Float32Array(this.dimensions);
      new Uint8Array(copy.buffer).set(row.vector);
      this.put(row.rowid, row.path, copy);
    }
  }

  get size(): number {
    return this.slotOf.size;
  }

  put(rowid: number, path: string, vector: Float32Array): void {
    let slot = this.slotOf.get(rowid) ?? this.free.pop();
    if (slot === undefined) {
      slot = this.rowids.length;
      if ((slot + 1) * this.dimensions > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
    }
    this.data.set(vector, slot * this.dimensions);
    this.rowids[slot] = rowid;
    this.paths[slot] = path;
    this.slotOf.set(rowid, slot);
  }

  /** Drops the vectors of chunks in these files (they were re-chunked or removed). */
  removePaths(paths: ReadonlySet<string>): void {
    for (let slot = 0; slot < this.rowids.length; slot += 1) {
      const rowid = this.rowids[slot]!;
      if (rowid < 0 || !paths.has(this.paths[slot]!)) continue;
      this.slotOf.delete(rowid);
      this.rowids[slot] = -1;
      this.free.push(slot);
    }
  }

  vectorOf(rowid: number): Float32Array | undefined {
    const slot = this.slotOf.get(rowid);
    if (slot === undefined) return undefined;
    return this.data.subarray(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  /** The `k` most similar chunks, best first (ties in slot order). */
  nearest(query: Float32Array, k: number): NearestHit[] {
    const top: NearestHit[] = [];
    const dims = this.dimensions;
    const data = this.data;
    for (let slot = 0; slot < this.rowids.length; slot += 1) {
      const rowid = this.rowids[slot]!;
      if (rowid < 0) continue;
      let sum = 0;
      const base = slot * dims;
      for (let i = 0; i < dims; i += 1) sum += data[base + i]! * query[i]!;
      if (top.length === k && sum <= top[k - 1]!.similarity) continue;
      let at = top.length === k ? k - 1 : top.length;
      while (at > 0 && top[at - 1]!.similarity < sum) {
        top[at] = top[at - 1]!;
        at -= 1;
      }
      top[at] = { rowid, similarity: sum };
      if (top.length > k) top.length = k;
    }
    return top;
  }
}

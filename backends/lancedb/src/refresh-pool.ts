import { createHash } from 'node:crypto';
import {
  type ChunkOptions,
  type Embedder,
  embedderKey,
  type MemoryChunk,
  recordKindOf,
  recordTrustOf,
  redactSecrets,
} from '@cairn/core';
import {
  embedInBatches,
  type PoolFileState,
  type PoolFileUpdate,
  type PoolSink,
  type PoolTarget,
  poolSyncSource,
  type SearchIndexRefreshStats,
  type StoredFileState,
  syncPool,
} from '@cairn/index-kit';
import type { LancedbStore, StoredChunk } from './lancedb-store';
import type { ChunkRow, FileRow } from './table-schema';

export type { PoolTarget };

/** The file index's refresh figures, plus what only a vector index costs. */
export interface LancedbRefreshStats extends SearchIndexRefreshStats {
  /** Chunks sent to the embedder (a moved chunk with the same text keeps its vector). */
  chunksEmbedded: number;
  chunksDeleted: number;
}

export interface RefreshContext {
  embedder: Embedder;
  chunk: ChunkOptions;
  /** Ignore what the index holds for this pool and index every file again. */
  full?: boolean;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * One chunk as stored. In object storage the text leaves the machine, so
 * it is redacted first (and the vector is made from the redacted text).
 */
function chunkRow(
  store: LancedbStore,
  target: PoolTarget,
  chunk: MemoryChunk,
  key: string,
): Omit<ChunkRow, 'vector'> {
  const text = store.redactsText ? redactSecrets(chunk.text).text : chunk.text;
  const row = {
    chunk_id: `${target.id}:${chunk.id}`,
    project: store.project,
    namespace_id: store.namespace,
    pool: target.id,
    tier: target.tier,
    agents: target.agents ?? null,
    path: chunk.path,
    kind: chunk.kind,
    memory_id: chunk.memoryId ?? null,
    category: chunk.category ?? null,
    review: chunk.review ?? null,
    source: chunk.source ?? null,
    record_kind: recordKindOf(chunk),
    trust_class: recordTrustOf(chunk),
    run_ref_kind: chunk.record?.runRef?.kind ?? null,
    run_ref_id: chunk.record?.runRef?.id ?? null,
    created_at: chunk.createdAt ?? null,
    created_ms: chunk.createdAt ? Date.parse(chunk.createdAt) : null,
    updated_at: chunk.updatedAt ?? null,
    start_line: chunk.startLine,
    end_line: chunk.endLine,
    text,
    text_hash: sha256(text),
    embedder: key,
  };
  return { ...row, fingerprint: sha256(JSON.stringify(row)) };
}

/** A stored file row of this pool as the generic sync compares it. */
function fileRow(store: LancedbStore, target: PoolTarget, file: PoolFileState): FileRow {
  return {
    file_key: `${target.id}:${file.path}`,
    project: store.project,
    namespace_id: store.namespace,
    pool: target.id,
    source: target.source.key,
    path: file.path,
    size: file.size,
    mtime_ms: file.mtimeMs,
    hash: file.hash,
  };
}

/** The file-state table of this pool; a pool that now points at another folder is dropped. */
async function storedStates(
  store: LancedbStore,
  target: PoolTarget,
): Promise<Map<string, StoredFileState>> {
  const rows = await store.filesOf(target.id);
  if ([...rows.values()].some((file) => file.source !== target.source.key)) {
    // The pool now points at another folder: nothing indexed for it still applies.
    await store.dropPool(target.id);
    return new Map();
  }
  const states = new Map<string, StoredFileState>();
  for (const [path, row] of rows) {
    states.set(path, { size: row.size, mtimeMs: row.mtime_ms, hash: row.hash });
  }
  return states;
}

/** Rows to write for the changed files, reusing stored vectors whose text did not change. */
async function rowsToWrite(
  store: LancedbStore,
  target: PoolTarget,
  updates: PoolFileUpdate[],
  embedder: Embedder,
): Promise<{ rows: ChunkRow[]; stale: string[]; embedded: number }> {
  const stored: Map<string, StoredChunk> = await store.storedChunks(
    target.id,
    updates.map((u) => u.path),
  );
  const key = embedderKey(embedder);
  const keep = new Set<string>();
  const rows: ChunkRow[] = [];
  const pending: Omit<ChunkRow, 'vector'>[] = [];
  for (const chunk of updates.flatMap((u) => u.chunks)) {
    const row = chunkRow(store, target, chunk, key);
    keep.add(row.chunk_id);
    const before = stored.get(row.chunk_id);
    if (before?.fingerprint === row.fingerprint) continue;
    if (before?.textHash === row.text_hash) rows.push({ ...row, vector: before.vector });
    else pending.push(row);
  }
  const vectors = await embedInBatches(
    embedder,
    pending.map((row) => row.text),
  );
  for (const [i, row] of pending.entries()) rows.push({ ...row, vector: vectors[i]! });
  const stale = [...stored.keys()].filter((id) => !keep.has(id));
  return { rows, stale, embedded: pending.length };
}

/**
 * The chunk and file-state tables as a sink: changed chunks upserted by
 * chunk id, chunks and files that are gone deleted, then the file states
 * recorded (last, so an interrupted refresh is redone, not lost).
 */
function lancedbSink(
  store: LancedbStore,
  target: PoolTarget,
  embedder: Embedder,
): PoolSink<{ chunksWritten: number; chunksEmbedded: number; chunksDeleted: number }> {
  return {
    fileStates: () => storedStates(store, target),
    async write(changes) {
      if (changes.reset) await store.dropPool(target.id);
      await store.deletePaths(target.id, changes.removed);
      const { rows, stale, embedded } = await rowsToWrite(store, target, changes.updates, embedder);
      await store.upsertChunks(rows);
      await store.deleteChunkIds(stale);
      const files = [...changes.restat, ...changes.updates];
      await store.upsertFiles(files.map((file) => fileRow(store, target, file)));
      return { chunksWritten: rows.length, chunksEmbedded: embedded, chunksDeleted: stale.length };
    },
  };
}

/** Brings one pool up to date (index-kit's `syncPool` over this table's sink). */
export async function refreshPool(
  store: LancedbStore,
  target: PoolTarget,
  ctx: RefreshContext,
): Promise<LancedbRefreshStats> {
  // LanceDB cuts every file with the index's chunker (the stored chunk ids depend on it).
  const { chunk: _ownChunker, ...source } = poolSyncSource(target);
  const sink = lancedbSink(store, target, ctx.embedder);
  const { stats } = await syncPool(source, sink, { chunk: ctx.chunk, full: ctx.full === true });
  return stats;
}

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
  chunkFile,
  embedInBatches,
  type PoolTarget,
  type SearchIndexRefreshStats,
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

interface FileUpdate {
  file: FileRow;
  chunks: MemoryChunk[];
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

/**
 * Compares the source with the file-state table, as the file backend does:
 * unchanged size and mtime is skipped unread, a moved stat with the same
 * hash only updates the stat, anything else is re-chunked.
 */
async function planChanges(store: LancedbStore, target: PoolTarget, ctx: RefreshContext) {
  let known = ctx.full ? new Map<string, FileRow>() : await store.filesOf(target.id);
  if ([...known.values()].some((file) => file.source !== target.source.key)) {
    // The pool now points at another folder: nothing indexed for it still applies.
    await store.dropPool(target.id);
    known = new Map();
  }
  const listed = await target.source.list();
  const restat: FileRow[] = [];
  const updates: FileUpdate[] = [];
  const present = new Set<string>();
  let read = 0;
  for (const entry of listed) {
    const before = known.get(entry.path);
    present.add(entry.path);
    if (before && before.size === entry.bytes && before.mtime_ms === entry.mtimeMs) continue;
    const bytes = await target.source.read(entry.path);
    if (!bytes) {
      present.delete(entry.path);
      continue;
    }
    read += 1;
    const file: FileRow = {
      file_key: `${target.id}:${entry.path}`,
      project: store.project,
      namespace_id: store.namespace,
      pool: target.id,
      source: target.source.key,
      path: entry.path,
      size: entry.bytes,
      mtime_ms: entry.mtimeMs,
      hash: sha256(bytes),
    };
    if (before?.hash === file.hash) restat.push(file);
    else {
      const options = { ...ctx.chunk, records: target.source.records };
      updates.push({ file, chunks: chunkFile(bytes.toString('utf8'), entry.path, options) });
    }
  }
  const removed = [...known.keys()].filter((path) => !present.has(path));
  return { restat, updates, removed, scanned: listed.length, read };
}

/** Rows to write for the changed files, reusing stored vectors whose text did not change. */
async function rowsToWrite(
  store: LancedbStore,
  target: PoolTarget,
  updates: FileUpdate[],
  embedder: Embedder,
): Promise<{ rows: ChunkRow[]; stale: string[]; embedded: number }> {
  const stored: Map<string, StoredChunk> = await store.storedChunks(
    target.id,
    updates.map((u) => u.file.path),
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
 * Brings one pool up to date: upserts changed chunks by chunk id, deletes
 * chunks and files that are gone, then records the file states. The file
 * states go last, so an interrupted refresh is redone, not lost.
 */
export async function refreshPool(
  store: LancedbStore,
  target: PoolTarget,
  ctx: RefreshContext,
): Promise<LancedbRefreshStats> {
  const started = performance.now();
  if (ctx.full) await store.dropPool(target.id);
  const plan = await planChanges(store, target, ctx);
  await store.deletePaths(target.id, plan.removed);
  const { rows, stale, embedded } = await rowsToWrite(store, target, plan.updates, ctx.embedder);
  await store.upsertChunks(rows);
  await store.deleteChunkIds(stale);
  await store.upsertFiles([...plan.restat, ...plan.updates.map((u) => u.file)]);
  return {
    filesScanned: plan.scanned,
    filesRead: plan.read,
    filesChanged: plan.updates.length,
    filesRemoved: plan.removed.length,
    chunksWritten: rows.length,
    chunksEmbedded: embedded,
    chunksDeleted: stale.length,
    ms: Math.round((performance.now() - started) * 100) / 100,
  };
}

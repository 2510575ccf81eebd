import { createHash } from 'node:crypto';
import {
  type MemoryChunk,
  type MemoryTier,
  type RecordKind,
  type RecordTrustClass,
  type RunRef,
  recordKindOf,
  recordTrustOf,
  redactSecrets,
} from '@cairn/core';
import { queryTerms } from '@cairn/index-kit';
import { pointIdOf } from './point-id';

/** Seed 004 §6.2 record kinds (core's): markdown is `doc`, a unit `long_term_shadow`, task history `run_digest` / `fix_pattern`. */
export type { RecordKind };
/** Seed 004 §6.2 trust classes. */
export type TrustClass = RecordTrustClass;

/**
 * The payload of one chunk point: seed 004 §6.2 partition keys (record
 * kind, namespace, repo, security scope, created_at, trust class), §6.3
 * unit metadata (memory id, review state, scope, provenance), and what
 * recall and incremental refresh need (pool, tier, lines, file state).
 */
export interface ChunkPayload {
  record_kind: RecordKind;
  namespace_id: string;
  repo: string;
  security_scope: string;
  scope: 'project';
  trust_class: TrustClass;
  /** The run a task-history record rests on: filter on `run_ref.kind` / `run_ref.id`. */
  run_ref?: RunRef;
  created_at?: string;
  updated_at?: string;
  memory_id?: string;
  review_state?: string;
  category?: string;
  provenance: { path: string; source?: string };
  chunk_id: string;
  pool: string;
  tier: MemoryTier;
  /** The folder the pool read from: a pool moved elsewhere is indexed again. */
  pool_source: string;
  path: string;
  kind: 'UNIT' | 'RAW';
  start_line: number;
  end_line: number;
  text: string;
  /** `embedderKey`: vectors of two embedders never answer one query. */
  embedder: string;
  file_size: number;
  file_mtime_ms: number;
  file_hash: string;
}

/** Payload fields recall and refresh filter on, with their index type. */
export const PAYLOAD_INDEXES: Record<string, 'keyword' | 'datetime'> = {
  record_kind: 'keyword',
  namespace_id: 'keyword',
  repo: 'keyword',
  security_scope: 'keyword',
  trust_class: 'keyword',
  'run_ref.kind': 'keyword',
  'run_ref.id': 'keyword',
  memory_id: 'keyword',
  review_state: 'keyword',
  category: 'keyword',
  pool: 'keyword',
  tier: 'keyword',
  path: 'keyword',
  kind: 'keyword',
  embedder: 'keyword',
  created_at: 'datetime',
};

export const DENSE_VECTOR = 'dense';
export const SPARSE_VECTOR = 'keyword';

/** Where a chunk lives and which file version it came from. */
export interface ChunkContext {
  namespace: string;
  repo: string;
  securityScope: string;
  pool: string;
  tier: MemoryTier;
  poolSource: string;
  embedder: string;
  file: { size: number; mtimeMs: number; hash: string };
}

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Unique across namespaces, repos and pools: the name the point id is derived from. */
export function chunkKey(ctx: Pick<ChunkContext, 'namespace' | 'repo' | 'pool'>, chunkId: string) {
  return `${ctx.namespace}/${ctx.repo}/${ctx.pool}:${chunkId}`;
}

/**
 * The point's payload. Its text leaves the machine, so secrets are
 * redacted (redactSecrets) here; the vectors are computed from this text.
 */
export function chunkPayload(ctx: ChunkContext, chunk: MemoryChunk): ChunkPayload {
  return {
    record_kind: recordKindOf(chunk),
    namespace_id: ctx.namespace,
    repo: ctx.repo,
    security_scope: ctx.securityScope,
    scope: 'project',
    trust_class: recordTrustOf(chunk),
    ...(chunk.record?.runRef ? { run_ref: { ...chunk.record.runRef } } : {}),
    ...(chunk.createdAt ? { created_at: chunk.createdAt } : {}),
    ...(chunk.updatedAt ? { updated_at: chunk.updatedAt } : {}),
    ...(chunk.memoryId ? { memory_id: chunk.memoryId } : {}),
    ...(chunk.review ? { review_state: chunk.review } : {}),
    ...(chunk.category ? { category: chunk.category } : {}),
    provenance: { path: chunk.path, ...(chunk.source ? { source: chunk.source } : {}) },
    chunk_id: chunkKey(ctx, chunk.id),
    pool: ctx.pool,
    tier: ctx.tier,
    pool_source: ctx.poolSource,
    path: chunk.path,
    kind: chunk.kind,
    start_line: chunk.startLine,
    end_line: chunk.endLine,
    text: redactSecrets(chunk.text).text,
    embedder: ctx.embedder,
    file_size: ctx.file.size,
    file_mtime_ms: ctx.file.mtimeMs,
    file_hash: ctx.file.hash,
  };
}

export interface SparseVector {
  indices: number[];
  values: number[];
}

/** A term's slot in the sparse vector: 32 bits of its SHA-256 (collisions are negligible). */
function termIndex(term: string): number {
  return createHash('sha256').update(term).digest().readUInt32BE(0);
}

/**
 * Keyword vector for the sparse arm: the same words the file index keeps
 * (stop words dropped), weighted by saturated term frequency. The
 * collection applies the IDF modifier, so the dot product ranks like BM25.
 */
export function sparseVectorOf(text: string, query = false): SparseVector {
  const keep = new Set(queryTerms(text));
  const counts = new Map<number, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (!keep.has(word)) continue;
    const index = termIndex(word);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  const indices = [...counts.keys()].sort((a, b) => a - b);
  const k1 = 1.2;
  const values = indices.map((i) => {
    const tf = counts.get(i)!;
    return query ? 1 : Number(((tf * (k1 + 1)) / (tf + k1)).toFixed(6));
  });
  return { indices, values };
}

export interface ChunkPoint {
  id: string;
  vector: Record<string, number[] | SparseVector>;
  payload: ChunkPayload;
}

/** A point: id from the chunk key, the dense vector, and the keyword vector when it has words. */
export function chunkPoint(payload: ChunkPayload, dense: number[], sparse: boolean): ChunkPoint {
  const keywords = sparse ? sparseVectorOf(payload.text) : undefined;
  return {
    id: pointIdOf(payload.chunk_id),
    vector: {
      [DENSE_VECTOR]: dense,
      ...(keywords && keywords.indices.length > 0 ? { [SPARSE_VECTOR]: keywords } : {}),
    },
    payload,
  };
}

import type { MemoryKind, MemoryRecordMeta } from '@cairn/core';
import type { QueryPlan } from './query-plan';

/** Chunk columns a query may narrow with an `IN (...)` list. */
export type FilterColumn =
  | 'path'
  | 'kind'
  | 'category'
  | 'review'
  | 'memory_id'
  | 'record_kind'
  | 'trust_class'
  | 'namespace_id'
  | 'repo'
  | 'run_ref_kind'
  | 'run_ref_id';

export interface ChunkQuery {
  pool: string;
  /** What to look for (see planQuery); without terms nothing is found. */
  plan?: QueryPlan;
  limit: number;
  /** Each column must equal one of the values; an empty list matches nothing. */
  oneOf?: [FilterColumn, string[]][];
  /** Leave out units reviewed as deprecated (RAW chunks have no review and stay). */
  excludeDeprecated?: boolean;
  /** Units created at or after / before these instants; RAW chunks have no date and drop out. */
  sinceMs?: number;
  untilMs?: number;
  pathPrefix?: string;
}

export interface ChunkHit {
  /** The chunk's row in this index file (keys its vector); not stable across refreshes. */
  rowid: number;
  chunkId: string;
  kind: MemoryKind;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  memoryId?: string;
  category?: string;
  review?: string;
  createdAt?: string;
  /** The task-history record the chunk belongs to. */
  record?: MemoryRecordMeta;
  /** Higher is better; comparable among the hits of one query (see rerank.ts). */
  score: number;
  /** The query's own words the chunk's text holds (keyword hits only). */
  matchedTerms?: string[];
}

/** The record columns of a chunk row (seed 004 §6.2), as a query selects them. */
export interface RecordColumns {
  recordKind: string;
  trustClass: string;
  namespace: string | null;
  repo: string | null;
  runRefKind: string | null;
  runRefId: string | null;
  createdAt: string | null;
}

/** A chunk row as the queries read it; `rank` is FTS5's bm25 (lower is better) or a negated similarity. */
export interface ChunkRow extends RecordColumns {
  rowid: number;
  chunkId: string;
  kind: MemoryKind;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  terms: string;
  context: string;
  view: number;
  memoryId: string | null;
  category: string | null;
  review: string | null;
  rank: number;
}

export interface RankedId {
  id: number;
  /** Lower is better (a bm25 value, or a negated similarity). */
  rank: number;
}

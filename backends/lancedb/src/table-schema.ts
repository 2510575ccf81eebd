import type { MemoryRecordMeta } from '@cairn/core';
import type { ChunkPlace } from '@cairn/index-kit';
import type { ArrowModule } from './load-lancedb';

/**
 * Bumped when the row layout changes: an older table is rebuilt from the
 * markdown (with a warning). 2 added the `project` partition; 3 the
 * `namespace_id` partition and seed 004 §6.2's record columns.
 */
export const INDEX_FORMAT = '3';

/** Schema metadata keys: what the stored vectors and chunks were made with. */
export const META_FORMAT = 'cairn.format';
export const META_EMBEDDER = 'cairn.embedder';
export const META_CHUNK = 'cairn.chunk';

/** One chunk of markdown with its vector and the metadata recall filters on. */
export interface ChunkRow {
  /** `<poolId>:<core chunk id>`: the merge key. */
  chunk_id: string;
  /** The project's partition (`repo`): every read, write and delete filters on it. */
  project: string;
  /** Seed 004 §6.2 `namespace_id`: the other half of the partition. */
  namespace_id: string;
  pool: string;
  tier: string;
  /** Agents of the pool; null means every agent. */
  agents: string[] | null;
  /** Relative to the pool folder, `/`-separated. */
  path: string;
  kind: string;
  memory_id: string | null;
  category: string | null;
  review: string | null;
  source: string | null;
  /** `doc`, `long_term_shadow`, `run_digest` or `fix_pattern`. */
  record_kind: string;
  /** `raw`, `derived` or `approved`. */
  trust_class: string;
  /** The run a task-history record rests on (`run_ref.kind`, `run_ref.id`). */
  run_ref_kind: string | null;
  run_ref_id: string | null;
  created_at: string | null;
  created_ms: number | null;
  updated_at: string | null;
  start_line: number;
  end_line: number;
  text: string;
  /** sha256 of the text: a changed location with the same text keeps its vector. */
  text_hash: string;
  /** sha256 of every stored field but the vector: equal means nothing to write. */
  fingerprint: string;
  embedder: string;
  vector: number[];
}

/** What the index remembers about one source file, to skip unchanged files unread. */
export interface FileRow {
  /** `<poolId>:<path>`: the merge key. */
  file_key: string;
  project: string;
  namespace_id: string;
  pool: string;
  /** The pool's folder when it was indexed; a pool moved elsewhere is reindexed. */
  source: string;
  path: string;
  size: number;
  mtime_ms: number;
  hash: string;
}

export interface TableMetadata {
  embedderKey: string;
  chunkKey: string;
}

function metadataMap(meta: TableMetadata): Map<string, string> {
  return new Map([
    [META_FORMAT, INDEX_FORMAT],
    [META_EMBEDDER, meta.embedderKey],
    [META_CHUNK, meta.chunkKey],
  ]);
}

export function chunkSchema(arrow: ArrowModule, dimensions: number, meta: TableMetadata) {
  const { Field, Schema, Utf8, Int32, Float64, Float32, List, FixedSizeList } = arrow;
  const text = (name: string, nullable = false) => new Field(name, new Utf8(), nullable);
  return new Schema(
    [
      text('chunk_id'),
      text('project'),
      text('namespace_id'),
      text('pool'),
      text('tier'),
      new Field('agents', new List(new Field('item', new Utf8(), true)), true),
      text('path'),
      text('kind'),
      text('memory_id', true),
      text('category', true),
      text('review', true),
      text('source', true),
      text('record_kind'),
      text('trust_class'),
      text('run_ref_kind', true),
      text('run_ref_id', true),
      text('created_at', true),
      new Field('created_ms', new Float64(), true),
      text('updated_at', true),
      new Field('start_line', new Int32(), false),
      new Field('end_line', new Int32(), false),
      text('text'),
      text('text_hash'),
      text('fingerprint'),
      text('embedder'),
      new Field(
        'vector',
        new FixedSizeList(dimensions, new Field('item', new Float32(), true)),
        false,
      ),
    ],
    metadataMap(meta),
  );
}

export function fileSchema(arrow: ArrowModule, meta: TableMetadata) {
  const { Field, Schema, Utf8, Float64 } = arrow;
  return new Schema(
    [
      new Field('file_key', new Utf8(), false),
      new Field('project', new Utf8(), false),
      new Field('namespace_id', new Utf8(), false),
      new Field('pool', new Utf8(), false),
      new Field('source', new Utf8(), false),
      new Field('path', new Utf8(), false),
      new Field('size', new Float64(), false),
      new Field('mtime_ms', new Float64(), false),
      new Field('hash', new Utf8(), false),
    ],
    metadataMap(meta),
  );
}

/** Columns a query returns: everything but the vector. */
export const RESULT_COLUMNS = [
  'chunk_id',
  'project',
  'namespace_id',
  'pool',
  'tier',
  'path',
  'kind',
  'memory_id',
  'category',
  'review',
  'source',
  'record_kind',
  'trust_class',
  'run_ref_kind',
  'run_ref_id',
  'created_at',
  'start_line',
  'end_line',
  'text',
] as const;

export type ResultRow = Pick<ChunkRow, (typeof RESULT_COLUMNS)[number]>;

/** A task-history record's metadata back from its row; the partition gives namespace and repo. */
function recordOf(row: ResultRow): MemoryRecordMeta | undefined {
  if (row.record_kind !== 'run_digest' && row.record_kind !== 'fix_pattern') return undefined;
  return {
    kind: row.record_kind,
    trustClass: row.trust_class as MemoryRecordMeta['trustClass'],
    namespace: row.namespace_id,
    repo: row.project,
    createdAt: row.created_at ?? '',
    ...(row.run_ref_kind && row.run_ref_id
      ? { runRef: { kind: row.run_ref_kind, id: row.run_ref_id } }
      : {}),
  };
}

/** A result row's place and unit fields, in the names the shared result shapes use. */
export function placeOf(row: ResultRow): ChunkPlace {
  const record = recordOf(row);
  return {
    path: row.path,
    startLine: row.start_line,
    endLine: row.end_line,
    kind: row.kind,
    memoryId: row.memory_id,
    category: row.category,
    review: row.review,
    createdAt: row.created_at,
    ...(record ? { record } : {}),
  };
}

/**
 * Seed 004 §6.2: what every index stores beside a chunk's text so that a
 * shared store (a team's Qdrant collection, a LanceDB table on object
 * storage, a Mem0 project) can partition and filter it. Markdown chunks
 * are `doc` (RAW text) or `long_term_shadow` (managed units); task
 * history's records (a run digest, a fix pattern) are rendered as markdown
 * by their source and carry their metadata in a header line that only a
 * records source is trusted to write (`PoolSource.records`).
 */
import * as z from 'zod/mini';
import { lazySchema } from './schemas';

export const RECORD_KINDS = ['doc', 'run_digest', 'fix_pattern', 'long_term_shadow'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Seed 004 §6.2 trust classes: `raw` text, `derived` summaries and drafts, `approved` reviewed memory. */
export const RECORD_TRUST_CLASSES = ['raw', 'derived', 'approved'] as const;
export type RecordTrustClass = (typeof RECORD_TRUST_CLASSES)[number];

/** The run a record rests on (seed 004 §6.2 `run_ref.kind`, `run_ref.id`): a Cairn run is a session. */
export interface RunRef {
  /** `run` (a session of an agent; its id is the session key). */
  kind: string;
  id: string;
}

/** The metadata of one task-history record, carried by every chunk of it. */
export interface MemoryRecordMeta {
  kind: 'run_digest' | 'fix_pattern';
  trustClass: RecordTrustClass;
  /** The memory namespace it was recorded in (`memory.namespace`). */
  namespace: string;
  /** The repository it was recorded in. */
  repo: string;
  /** When the record was first written (ISO 8601). */
  createdAt: string;
  runRef?: RunRef;
}

const token = () => z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[^\s"<>]+$/));

/** The header's JSON, checked where a chunker reads it (a damaged header makes the file plain text). */
export const memoryRecordMetaSchema = lazySchema(() =>
  z.object({
    kind: z.enum(['run_digest', 'fix_pattern']),
    trustClass: z.enum(RECORD_TRUST_CLASSES),
    namespace: token(),
    repo: token(),
    createdAt: z.string().check(
      z.maxLength(64),
      z.refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO 8601 instant'),
    ),
    runRef: z.optional(z.object({ kind: token(), id: token() })),
  }),
);

const HEADER_OPEN = '<!-- cairn:record ';
const HEADER_CLOSE = ' -->';

/** The first line of a rendered record: its metadata as JSON in a Cairn marker (never indexed as text). */
export function encodeRecordHeader(meta: MemoryRecordMeta): string {
  // `-->` can only occur inside a JSON string, where `\u003e` reads back the same.
  return `${HEADER_OPEN}${JSON.stringify(meta).replace(/-->/g, '--\\u003e')}${HEADER_CLOSE}`;
}

/** The metadata of a record's first line, or undefined when the line is not a valid header. */
export function decodeRecordHeader(line: string): MemoryRecordMeta | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith(HEADER_OPEN) || !trimmed.endsWith(HEADER_CLOSE)) return undefined;
  try {
    const json: unknown = JSON.parse(trimmed.slice(HEADER_OPEN.length, -HEADER_CLOSE.length));
    const parsed = memoryRecordMetaSchema.safeParse(json);
    return parsed.success ? (parsed.data as MemoryRecordMeta) : undefined;
  } catch {
    return undefined;
  }
}

/** What a chunk's record fields are derived from. */
export interface RecordedChunk {
  kind: string;
  review?: string | null | undefined;
  record?: MemoryRecordMeta | undefined;
}

/** The chunk's record kind: its record's, else `long_term_shadow` for a unit and `doc` for RAW text. */
export function recordKindOf(chunk: RecordedChunk): RecordKind {
  if (chunk.record) return chunk.record.kind;
  return chunk.kind === 'UNIT' ? 'long_term_shadow' : 'doc';
}

/** The chunk's trust class: its record's, else `approved` for an approved unit, `derived` for another, `raw` for RAW text. */
export function recordTrustOf(chunk: RecordedChunk): RecordTrustClass {
  if (chunk.record) return chunk.record.trustClass;
  if (chunk.kind !== 'UNIT') return 'raw';
  return chunk.review === 'approved' ? 'approved' : 'derived';
}

/**
 * Recall metadata keys of the record fields, as every index reports them
 * and as recall filters name them (seed 004 §6.2's payload keys).
 */
export const RECORD_METADATA_KEYS = {
  kind: 'record_kind',
  trustClass: 'trust_class',
  namespace: 'namespace_id',
  repo: 'repo',
  runRefKind: 'run_ref.kind',
  runRefId: 'run_ref.id',
} as const;

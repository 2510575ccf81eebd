/** Managed memory units (seed 003) and the shapes derived from them. */

export const MEMORY_CATEGORIES = ['preference', 'fact', 'decision', 'entity', 'other'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

/** Review states (seed 004): explicit adds are approved; deprecated units are kept but not recalled by default. */
export const REVIEW_STATES = ['draft', 'approved', 'deprecated'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** One managed unit as stored between its markers in a daily file. */
export interface MemoryUnit {
  /** `UNIT:<uuid>`. */
  memoryId: string;
  category: MemoryCategory;
  review: ReviewState;
  /** ISO 8601 instants. */
  createdAt: string;
  updatedAt: string;
  /** Where the memory came from (a tool, a session, a dialogue turn id). */
  source?: string;
  /** The unit's text, without markers. */
  text: string;
}

/** A unit found in a file, with its location (1-based, inclusive, marker lines included). */
export interface LocatedUnit extends MemoryUnit {
  path: string;
  startLine: number;
  endLine: number;
}

/** Text outside managed units, addressed by path and line range. */
export interface RawSegment {
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  /** Paragraphs with the same block number have no hard boundary between them. */
  block: number;
}

/** Where a damaged region of a file starts, and why it is read as RAW. */
export interface DocumentIssue {
  path: string;
  line: number;
  kind: 'unterminated_unit' | 'nested_start' | 'stray_end' | 'invalid_attributes' | 'duplicate_id';
  message: string;
}

export interface ParsedDocument {
  path: string;
  units: LocatedUnit[];
  raw: RawSegment[];
  issues: DocumentIssue[];
}

/** RAW ids address a line range: `RAW:<path>#L<start>-L<end>`. */
export function rawMemoryId(segment: { path: string; startLine: number; endLine: number }): string {
  return `RAW:${segment.path}#L${segment.startLine}-L${segment.endLine}`;
}

export const UNIT_ID_PATTERN =
  /^UNIT:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

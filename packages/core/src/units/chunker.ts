import type { MemoryKind } from '../contracts/memory-backend';
import type { MemoryRecordMeta } from '../contracts/memory-record';
import type { MemoryCategory, ParsedDocument, RawSegment, ReviewState } from './unit-types';

/** One indexable piece of a workspace file. Marker lines never appear in `text`. */
export interface MemoryChunk {
  /** Stable within a file version: `<path>#<memoryId>` or `<path>#L<start>-L<end>`. */
  id: string;
  kind: MemoryKind;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  memoryId?: string;
  category?: MemoryCategory;
  review?: ReviewState;
  createdAt?: string;
  updatedAt?: string;
  source?: string;
  /** The task-history record the chunk belongs to, when its source renders records (seed 004 §6.2). */
  record?: MemoryRecordMeta;
}

export interface ChunkOptions {
  /** Target size of a RAW chunk. Default 400. */
  maxTokens?: number;
  /** Tokens carried from the end of one RAW chunk into the next. Default 60. */
  overlapTokens?: number;
}

/** RAW chunk sizing unless an index says otherwise. */
export const DEFAULT_CHUNK_OPTIONS: Readonly<Required<ChunkOptions>> = {
  maxTokens: 400,
  overlapTokens: 60,
};

/** A cheap, tokenizer-free estimate: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

interface Piece {
  startLine: number;
  endLine: number;
  text: string;
}

/** Splits one oversized paragraph on line boundaries (or hard-wraps one huge line). */
function splitParagraph(segment: RawSegment, maxChars: number): Piece[] {
  const lines = segment.text.split('\n');
  const pieces: Piece[] = [];
  lines.forEach((line, index) => {
    const lineNo = segment.startLine + index;
    for (let at = 0; at < Math.max(line.length, 1); at += maxChars) {
      pieces.push({ startLine: lineNo, endLine: lineNo, text: line.slice(at, at + maxChars) });
    }
  });
  return pieces;
}

/**
 * Packs the paragraphs of one block into chunks of about `maxTokens`,
 * starting a new chunk at each heading and carrying a short tail of the
 * previous chunk as overlap.
 */
function packBlock(segments: RawSegment[], maxChars: number, overlapChars: number): Piece[] {
  const pieces: Piece[] = segments.flatMap((segment) =>
    segment.text.length > maxChars ? splitParagraph(segment, maxChars) : [segment],
  );
  const chunks: Piece[] = [];
  let current: Piece[] = [];
  const flush = () => {
    if (current.length === 0) return;
    chunks.push({
      startLine: current[0]!.startLine,
      endLine: current.at(-1)!.endLine,
      text: current.map((p) => p.text).join('\n\n'),
    });
    const tail = current.at(-1)!;
    current = tail.text.length <= overlapChars ? [tail] : [];
  };
  for (const piece of pieces) {
    const size = current.reduce((sum, p) => sum + p.text.length + 2, 0);
    const heading = /^#{1,6}\s/.test(piece.text);
    if (heading && current.length > 0) {
      flush();
      current = [];
    } else if (size + piece.text.length > maxChars) {
      flush();
    }
    current.push(piece);
  }
  if (current.length > 0 && !chunks.some((c) => c.endLine >= current.at(-1)!.endLine)) {
    chunks.push({
      startLine: current[0]!.startLine,
      endLine: current.at(-1)!.endLine,
      text: current.map((p) => p.text).join('\n\n'),
    });
  }
  return chunks;
}

/**
 * Turns a parsed file into chunks: one chunk per managed unit (its text
 * only), and RAW markdown packed by block, never across `----` or a unit.
 */
export function chunkDocument(document: ParsedDocument, options: ChunkOptions = {}): MemoryChunk[] {
  const maxChars = (options.maxTokens ?? DEFAULT_CHUNK_OPTIONS.maxTokens) * 4;
  const overlapChars = (options.overlapTokens ?? DEFAULT_CHUNK_OPTIONS.overlapTokens) * 4;
  const chunks: MemoryChunk[] = document.units.map((unit) => ({
    id: `${document.path}#${unit.memoryId}`,
    kind: 'UNIT',
    path: document.path,
    startLine: unit.startLine,
    endLine: unit.endLine,
    text: unit.text,
    memoryId: unit.memoryId,
    category: unit.category,
    review: unit.review,
    createdAt: unit.createdAt,
    updatedAt: unit.updatedAt,
    ...(unit.source ? { source: unit.source } : {}),
  }));
  const blocks = new Map<number, RawSegment[]>();
  for (const segment of document.raw) {
    const list = blocks.get(segment.block);
    if (list) list.push(segment);
    else blocks.set(segment.block, [segment]);
  }
  const used = new Set<string>();
  for (const segments of blocks.values()) {
    for (const piece of packBlock(segments, maxChars, overlapChars)) {
      // A hard-wrapped giant line yields several pieces with the same line range.
      let id = `${document.path}#L${piece.startLine}-L${piece.endLine}`;
      for (let n = 2; used.has(id); n += 1)
        id = `${document.path}#L${piece.startLine}-L${piece.endLine}~${n}`;
      used.add(id);
      chunks.push({
        id,
        kind: 'RAW',
        path: document.path,
        ...piece,
      });
    }
  }
  return chunks.sort((a, b) => a.startLine - b.startLine);
}

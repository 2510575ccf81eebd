import {
  type DuplicateSignature,
  duplicateSignature,
  isDuplicateSignature,
  type LocatedUnit,
  listMemoryFiles,
  type ParsedDocument,
  parseMemoryDocument,
  type RawSegment,
  rawMemoryId,
  readMemoryFile,
} from '@cairn/core';
import type { DuplicateResult, MemoryRecord } from './unit-results';

/**
 * Parsed files by path, with the size and modification time they were read
 * at. A file whose size and mtime are unchanged is not read again, unless
 * it changed less than RACY_MS before it was read (the same rule git uses
 * for its index: a write within the clock's resolution of the read could
 * leave both unchanged). A file that changed is read, and parsed again only
 * when its text changed.
 */
export type ParseCache = Map<
  string,
  { text: string; document: ParsedDocument; bytes: number; mtimeMs: number; readAt: number }
>;

const RACY_MS = 2000;

/** Every workspace file, parsed. Unreadable files are skipped (doctor reports them). */
export async function scanWorkspace(
  rootDir: string,
  cache: ParseCache = new Map(),
): Promise<ParsedDocument[]> {
  const documents: ParsedDocument[] = [];
  const seen = new Set<string>();
  for (const file of await listMemoryFiles(rootDir)) {
    const cached = cache.get(file.path);
    if (
      cached &&
      cached.bytes === file.bytes &&
      cached.mtimeMs === file.mtimeMs &&
      file.mtimeMs < cached.readAt - RACY_MS
    ) {
      seen.add(file.path);
      documents.push(cached.document);
      continue;
    }
    const readAt = Date.now();
    const text = await readMemoryFile(rootDir, file.path).catch(() => undefined);
    if (text === undefined) continue;
    seen.add(file.path);
    const stat = { bytes: file.bytes, mtimeMs: file.mtimeMs, readAt };
    const document = cached?.text === text ? cached.document : parseMemoryDocument(text, file.path);
    cache.set(file.path, { text, document, ...stat });
    documents.push(document);
  }
  for (const path of cache.keys()) if (!seen.has(path)) cache.delete(path);
  return documents;
}

/** Records of parsed units, kept as long as their parsed document is; frozen, as they are shared. */
const records = new WeakMap<LocatedUnit, MemoryRecord>();

export function unitRecord(unit: LocatedUnit): MemoryRecord {
  let record = records.get(unit);
  if (!record) {
    record = Object.freeze(buildUnitRecord(unit));
    records.set(unit, record);
  }
  return record;
}

function buildUnitRecord(unit: LocatedUnit): MemoryRecord {
  const { memoryId, path, startLine, endLine, text, category, review, createdAt, updatedAt } = unit;
  return {
    memoryId,
    kind: 'UNIT',
    path,
    startLine,
    endLine,
    text,
    category,
    review,
    createdAt,
    updatedAt,
    ...(unit.source ? { source: unit.source } : {}),
  };
}

export function rawRecord(segment: RawSegment): MemoryRecord {
  const { path, startLine, endLine, text } = segment;
  return { memoryId: rawMemoryId(segment), kind: 'RAW', path, startLine, endLine, text };
}

export function findUnit(documents: ParsedDocument[], memoryId: string): LocatedUnit | undefined {
  for (const document of documents) {
    const unit = document.units.find((u) => u.memoryId === memoryId);
    if (unit) return unit;
  }
  return undefined;
}

/**
 * The first unit or RAW paragraph that duplicates `text` (docs/UNITS.md
 * states the rule), skipping the unit `exceptId`.
 */
export function findDuplicate(
  documents: ParsedDocument[],
  text: string,
  exceptId?: string,
): DuplicateResult | undefined {
  const wanted = duplicateSignature(text);
  for (const document of documents) {
    for (const unit of document.units) {
      if (unit.memoryId === exceptId || unit.review === 'deprecated') continue;
      if (isDuplicateSignature(signatureOf(unit), wanted)) {
        const { memoryId, path, category } = unit;
        return {
          action: 'duplicate',
          existing: { memoryId, kind: 'UNIT', path, category, text: unit.text },
        };
      }
    }
    for (const segment of document.raw) {
      if (isDuplicateSignature(signatureOf(segment), wanted)) {
        const record = rawRecord(segment);
        return {
          action: 'duplicate',
          existing: {
            memoryId: record.memoryId,
            kind: 'RAW',
            path: record.path,
            text: record.text,
          },
        };
      }
    }
  }
  return undefined;
}

/** Signatures of parsed units and segments, kept as long as their parsed document is. */
const signatures = new WeakMap<object, DuplicateSignature>();

function signatureOf(item: { text: string }): DuplicateSignature {
  let signature = signatures.get(item);
  if (!signature) {
    signature = duplicateSignature(item.text);
    signatures.set(item, signature);
  }
  return signature;
}

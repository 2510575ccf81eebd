import {
  duplicateSignature,
  type LocatedUnit,
  listMemoryFiles,
  type ParsedDocument,
  parseMemoryDocument,
  type RawSegment,
  rawMemoryId,
  readMemoryFile,
} from '@cairn/core';
import { dedupIndexOf } from './dedup-index';
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
 * states the rule), skipping the unit `exceptId` and deprecated units. Each
 * document is probed through its duplicate index (dedup-index.ts), so a
 * workspace of a year of units is not compared text by text.
 */
export function findDuplicate(
  documents: ParsedDocument[],
  text: string,
  exceptId?: string,
): DuplicateResult | undefined {
  const wanted = duplicateSignature(text);
  for (const document of documents) {
    const found = dedupIndexOf(document).find(wanted, (item) =>
      item.kind === 'UNIT'
        ? item.unit.memoryId !== exceptId && item.unit.review !== 'deprecated'
        : true,
    );
    if (found?.kind === 'UNIT') {
      const { memoryId, path, category, text: existing } = found.unit;
      return {
        action: 'duplicate',
        existing: { memoryId, kind: 'UNIT', path, category, text: existing },
      };
    }
    if (found?.kind === 'RAW') {
      const record = rawRecord(found.segment);
      return {
        action: 'duplicate',
        existing: { memoryId: record.memoryId, kind: 'RAW', path: record.path, text: record.text },
      };
    }
  }
  return undefined;
}

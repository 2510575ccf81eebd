import {
  isDuplicateText,
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
 * Parsed files by path, with the text they were parsed from. Every scan
 * still reads every file; only a file whose text changed is parsed again
 * (parsing, not reading, is the cost of a large workspace).
 */
export type ParseCache = Map<string, { text: string; document: ParsedDocument }>;

/** Every workspace file, parsed. Unreadable files are skipped (doctor reports them). */
export async function scanWorkspace(
  rootDir: string,
  cache: ParseCache = new Map(),
): Promise<ParsedDocument[]> {
  const documents: ParsedDocument[] = [];
  const seen = new Set<string>();
  for (const file of await listMemoryFiles(rootDir)) {
    const text = await readMemoryFile(rootDir, file.path).catch(() => undefined);
    if (text === undefined) continue;
    seen.add(file.path);
    const cached = cache.get(file.path);
    if (cached?.text === text) {
      documents.push(cached.document);
      continue;
    }
    const document = parseMemoryDocument(text, file.path);
    cache.set(file.path, { text, document });
    documents.push(document);
  }
  for (const path of cache.keys()) if (!seen.has(path)) cache.delete(path);
  return documents;
}

export function unitRecord(unit: LocatedUnit): MemoryRecord {
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
  for (const document of documents) {
    for (const unit of document.units) {
      if (unit.memoryId === exceptId || unit.review === 'deprecated') continue;
      if (isDuplicateText(unit.text, text)) {
        const { memoryId, path, category } = unit;
        return {
          action: 'duplicate',
          existing: { memoryId, kind: 'UNIT', path, category, text: unit.text },
        };
      }
    }
    for (const segment of document.raw) {
      if (isDuplicateText(segment.text, text)) {
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

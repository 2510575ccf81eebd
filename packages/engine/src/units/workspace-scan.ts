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

/** Every workspace file, parsed. Unreadable files are skipped (doctor reports them). */
export async function scanWorkspace(rootDir: string): Promise<ParsedDocument[]> {
  const documents: ParsedDocument[] = [];
  for (const file of await listMemoryFiles(rootDir)) {
    const text = await readMemoryFile(rootDir, file.path).catch(() => undefined);
    if (text !== undefined) documents.push(parseMemoryDocument(text, file.path));
  }
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

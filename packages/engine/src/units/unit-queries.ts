import {
  CairnError,
  compareCodeUnits,
  type LocatedUnit,
  lazySchema,
  type ParsedDocument,
  parseInput,
  readMemoryFile,
  UNIT_ID_PATTERN,
} from '@cairn/core';
import * as z from 'zod/mini';
import type { MemoryRecord } from './unit-results';
import type { ListUnitsFilter } from './unit-store';
import { findUnit, rawRecord, unitRecord } from './workspace-scan';

const RAW_ID = /^RAW:(.+)#L(\d+)-L(\d+)$/;

function notFound(memoryId: string): CairnError {
  return new CairnError('NOT_FOUND', `No memory ${memoryId}`, {
    hint: 'find ids with `cairn list` or `cairn search`',
    details: { memoryId },
  });
}

/** A unit by id, or a RAW line range by its `RAW:<path>#L<a>-L<b>` id. */
export async function getMemory(
  rootDir: string,
  documents: () => Promise<ParsedDocument[]>,
  memoryId: string,
): Promise<MemoryRecord> {
  const raw = RAW_ID.exec(memoryId);
  if (raw) {
    const [, path, from, to] = raw;
    const start = Number(from);
    const end = Number(to);
    const text = await readMemoryFile(rootDir, path).catch((error) => {
      if (CairnError.isInstance(error) && error.code === 'NOT_FOUND') throw notFound(memoryId);
      throw error;
    });
    const lines = text.split('\n');
    if (start < 1 || end < start || end > lines.length) throw notFound(memoryId);
    const slice = lines.slice(start - 1, end).join('\n');
    return rawRecord({ path: path!, startLine: start, endLine: end, text: slice, block: 0 });
  }
  if (!UNIT_ID_PATTERN.test(memoryId)) {
    throw new CairnError('INVALID_INPUT', `Not a memory id: ${JSON.stringify(memoryId)}`, {
      hint: 'ids look like UNIT:<uuid> or RAW:<path>#L<start>-L<end>',
    });
  }
  const unit = findUnit(await documents(), memoryId);
  if (!unit) throw notFound(memoryId);
  return unitRecord(unit);
}

const isoDate = lazySchema(() =>
  z.string().check(z.refine((v) => !Number.isNaN(Date.parse(v)), 'expected an ISO date')),
);
export const listFilterSchema = lazySchema(() =>
  z.strictObject({
    category: z.optional(z.enum(['preference', 'fact', 'decision', 'entity', 'other'])),
    review: z.optional(z.enum(['draft', 'approved', 'deprecated'])),
    since: z.optional(isoDate),
    until: z.optional(isoDate),
    path: z.optional(z.string().check(z.maxLength(200))),
  }),
);

/** Managed units matching the filter, oldest first. */
export function listUnits(
  documents: readonly ParsedDocument[],
  input: ListUnitsFilter = {},
): MemoryRecord[] {
  return createUnitLister()(documents, input);
}

/** Oldest first; ties in file order (documents are sorted by path, units by line). */
function byCreation(a: MemoryRecord, b: MemoryRecord): number {
  return (
    compareCodeUnits(a.createdAt ?? '', b.createdAt ?? '') ||
    compareCodeUnits(a.path, b.path) ||
    a.startLine - b.startLine
  );
}

/** Merges two lists sorted by `byCreation`. */
function merge(a: MemoryRecord[], b: MemoryRecord[]): MemoryRecord[] {
  const out: MemoryRecord[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(byCreation(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

interface Listed {
  key: string;
  perDocument: WeakMap<ParsedDocument, MemoryRecord[]>;
  documents: readonly ParsedDocument[];
  records: MemoryRecord[];
}

/**
 * `listUnits` that keeps its last answer: a scan returns the same document
 * object for a file that did not change (and the same array when no file
 * did), so only the records of changed files are filtered and merged in.
 * An in-process harness lists the approved units at every session start
 * and end; a year of units would otherwise be sorted each time.
 */
export function createUnitLister() {
  let last: Listed | undefined;
  return (documents: readonly ParsedDocument[], input: ListUnitsFilter = {}): MemoryRecord[] => {
    const filter = parseInput(listFilterSchema, input, 'list filter');
    const key = JSON.stringify(filter);
    if (last?.key !== key) last = { key, perDocument: new WeakMap(), documents: [], records: [] };
    const listed = last;
    if (listed.documents !== documents) {
      const matches = unitMatcher(filter);
      const recordsOf = (document: ParsedDocument) => {
        let records = listed.perDocument.get(document);
        if (!records) {
          records = document.units.filter(matches).map(unitRecord);
          listed.perDocument.set(document, records);
        }
        return records;
      };
      const current = new Set(documents);
      const before = new Set(listed.documents);
      const gone = new Set(
        listed.documents.filter((d) => !current.has(d)).flatMap((d) => recordsOf(d)),
      );
      const added = documents
        .filter((d) => !before.has(d))
        .flatMap(recordsOf)
        .sort(byCreation);
      const kept = gone.size
        ? listed.records.filter((record) => !gone.has(record))
        : listed.records;
      listed.records = merge(kept, added);
      listed.documents = documents;
    }
    return listed.records.slice();
  };
}

function unitMatcher(filter: z.output<typeof listFilterSchema>) {
  const since = filter.since ? Date.parse(filter.since) : undefined;
  const until = filter.until ? Date.parse(filter.until) : undefined;
  return (unit: LocatedUnit): boolean => {
    if (filter.category && unit.category !== filter.category) return false;
    if (filter.review && unit.review !== filter.review) return false;
    if (filter.path && !unit.path.startsWith(filter.path)) return false;
    if (since === undefined && until === undefined) return true;
    const created = Date.parse(unit.createdAt);
    if (since !== undefined && created < since) return false;
    if (until !== undefined && created >= until) return false;
    return true;
  };
}

export { findUnit };

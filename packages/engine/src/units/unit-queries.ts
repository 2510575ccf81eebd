import {
  CairnError,
  compareCodeUnits,
  idPrefixOf,
  isWholeId,
  type LocatedUnit,
  lazySchema,
  type ParsedDocument,
  parseInput,
  readMemoryFile,
  resolveIdPrefix,
  UNIT_ID_KIND,
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
  if (!idPrefixOf(memoryId, UNIT_ID_KIND)) {
    throw new CairnError('INVALID_INPUT', `Not a memory id: ${JSON.stringify(memoryId)}`, {
      hint: 'ids look like UNIT:<uuid> (or a unique start of one) or RAW:<path>#L<start>-L<end>',
    });
  }
  const parsed = await documents();
  const id = isWholeId(memoryId, UNIT_ID_KIND)
    ? memoryId
    : resolveIdPrefix(
        memoryId,
        UNIT_ID_KIND,
        parsed.flatMap((document) => document.units.map((unit) => unit.memoryId)),
      );
  const unit = findUnit(parsed, id);
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

/** Where `record` is, or would go, in `list` (sorted by `byCreation`). */
function positionOf(list: MemoryRecord[], record: MemoryRecord): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byCreation(list[middle]!, record) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How many filters' lists a lister keeps. */
const KEPT_FILTERS = 4;

/** Past this many records changed, one pass over the list beats a search per record. */
const FEW = 64;

/**
 * `list` without `gone` and with `added` (sorted by `byCreation`), in
 * order. A session changes a few records of one file: each is found by
 * binary search, so a year of units is moved, not compared.
 */
function patch(list: MemoryRecord[], gone: MemoryRecord[], added: MemoryRecord[]): MemoryRecord[] {
  let out = list;
  if (gone.length > FEW) {
    const drop = new Set(gone);
    out = out.filter((record) => !drop.has(record));
  } else if (gone.length > 0) {
    out = out.slice();
    for (const record of gone) {
      const at = positionOf(out, record);
      if (out[at] === record) out.splice(at, 1);
    }
  }
  if (added.length > FEW) {
    const merged: MemoryRecord[] = [];
    let i = 0;
    for (const record of added) {
      while (i < out.length && byCreation(out[i]!, record) <= 0) merged.push(out[i++]!);
      merged.push(record);
    }
    while (i < out.length) merged.push(out[i++]!);
    return merged;
  }
  if (out === list && added.length > 0) out = out.slice();
  for (const record of added) out.splice(positionOf(out, record), 0, record);
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
  // A few filters (the lifecycle's approved units, a harness's own list calls), least recent out.
  const lists = new Map<string, Listed>();
  return (documents: readonly ParsedDocument[], input: ListUnitsFilter = {}): MemoryRecord[] => {
    const filter = parseInput(listFilterSchema, input, 'list filter');
    const key = JSON.stringify(filter);
    const listed = lists.get(key) ?? {
      key,
      perDocument: new WeakMap(),
      documents: [],
      records: [],
    };
    lists.delete(key);
    lists.set(key, listed);
    if (lists.size > KEPT_FILTERS) lists.delete(lists.keys().next().value!);
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
      const gone = listed.documents.filter((d) => !current.has(d)).flatMap(recordsOf);
      const added = documents
        .filter((d) => !before.has(d))
        .flatMap(recordsOf)
        .sort(byCreation);
      listed.records = patch(listed.records, gone, added);
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

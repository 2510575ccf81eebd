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
  documents: ParsedDocument[],
  input: ListUnitsFilter = {},
): MemoryRecord[] {
  return createUnitLister()(documents, input);
}

/**
 * `listUnits` that keeps each parsed document's matching records: a scan
 * returns the same document object for a file that did not change, so only
 * changed files are filtered again. An in-process harness lists the
 * approved units at every session end; a year of units would otherwise
 * cost tens of ms each time.
 */
export function createUnitLister() {
  let cached: { key: string; perDocument: WeakMap<ParsedDocument, MemoryRecord[]> } | undefined;
  return (documents: ParsedDocument[], input: ListUnitsFilter = {}): MemoryRecord[] => {
    const filter = parseInput(listFilterSchema, input, 'list filter');
    const key = JSON.stringify(filter);
    if (cached?.key !== key) cached = { key, perDocument: new WeakMap() };
    const { perDocument } = cached;
    const matches = unitMatcher(filter);
    return documents
      .flatMap((document) => {
        let records = perDocument.get(document);
        if (!records) {
          records = document.units.filter(matches).map(unitRecord);
          perDocument.set(document, records);
        }
        return records;
      })
      .sort((a, b) => compareCodeUnits(a.createdAt ?? '', b.createdAt ?? ''));
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

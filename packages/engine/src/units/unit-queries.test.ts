import { type ParsedDocument, parseMemoryDocument, serializeUnit } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createUnitLister } from './unit-queries';
import { unitRecord } from './workspace-scan';

let seed = 5;
const next = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
let serial = 0;

/** A daily file of units; few distinct instants, so ties in `createdAt` are common. */
function day(n: number): ParsedDocument {
  const path = `2026-02-${String(n).padStart(2, '0')}.md`;
  const blocks = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
    serial += 1;
    const at = `2026-02-0${1 + Math.floor(next() * 3)}T10:00:00.000Z`;
    return serializeUnit({
      memoryId: `UNIT:00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
      text: `note ${serial}`,
      category: next() < 0.5 ? 'decision' : 'fact',
      review: next() < 0.8 ? 'approved' : 'draft',
      createdAt: at,
      updatedAt: at,
    });
  });
  return parseMemoryDocument(`# ${path}\n\n${blocks.join('\n\n----\n\n')}\n`, path);
}

/** The list read the long way: every unit of every document, stable-sorted by creation. */
function byTheBook(documents: ParsedDocument[], review?: 'approved') {
  return documents
    .flatMap((d) => d.units.filter((u) => !review || u.review === review).map(unitRecord))
    .sort((a, b) => (a.createdAt! < b.createdAt! ? -1 : a.createdAt! > b.createdAt! ? 1 : 0));
}

describe('the unit list of a long-lived store', () => {
  it('answers as a list from scratch while files are added, rewritten and removed', () => {
    const list = createUnitLister();
    let documents = Array.from({ length: 8 }, (_, i) => day(i + 1));
    let days = documents.length;
    const again = (d: ParsedDocument) => day(Number(d.path.slice(8, 10)));
    for (let round = 0; round < 200; round += 1) {
      const at = Math.floor(next() * documents.length);
      if (round % 4 === 0) documents = [...documents, day(++days)];
      else if (round % 4 === 1 && documents.length > 3)
        documents = documents.filter((_, i) => i !== at);
      else documents = documents.map((d, i) => (i === at ? again(d) : d));
      // Many files at once now and then (a checkout), so the one-pass path runs too.
      if (round % 50 === 49) documents = documents.map(again);
      documents.sort((a, b) => (a.path < b.path ? -1 : 1));
      expect(list(documents, { review: 'approved' })).toEqual(byTheBook(documents, 'approved'));
      if (round % 10 === 0) expect(list(documents)).toEqual(byTheBook(documents));
    }
  });

  it('hands each caller its own array', () => {
    const list = createUnitLister();
    const documents = [day(1), day(2)];
    const first = list(documents);
    first.length = 0;
    expect(list(documents)).toEqual(byTheBook(documents));
  });
});

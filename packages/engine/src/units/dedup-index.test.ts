import {
  isDuplicateText,
  type LocatedUnit,
  type ParsedDocument,
  parseMemoryDocument,
  serializeUnit,
} from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { DedupIndex } from './dedup-index';
import { findDuplicate } from './workspace-scan';

/** The rule read the long way: every unit, then every RAW paragraph, of every document. */
function byTheBook(documents: ParsedDocument[], text: string, exceptId?: string) {
  for (const document of documents) {
    const unit = document.units.find(
      (u: LocatedUnit) =>
        u.memoryId !== exceptId && u.review !== 'deprecated' && isDuplicateText(u.text, text),
    );
    if (unit) return unit.memoryId;
    const raw = document.raw.find((segment) => isDuplicateText(segment.text, text));
    if (raw) return `RAW@${raw.path}:${raw.startLine}`;
  }
  return undefined;
}

describe('the duplicate index', () => {
  const words = 'pnpm deploy staging kestrel tuesday cluster runbook cache port token'.split(' ');
  let seed = 11;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const sentence = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');

  function documents(days = 6, from = 1): ParsedDocument[] {
    return Array.from({ length: days }, (_, i) => {
      const day = from - 1 + i;
      const path = `2026-01-${String(day + 1).padStart(2, '0')}.md`;
      const blocks = Array.from({ length: 25 }, (_, i) =>
        serializeUnit({
          memoryId: `UNIT:00000000-0000-4000-8000-${String(day * 100 + i).padStart(12, '0')}`,
          text: sentence(3 + Math.floor(next() * 12)),
          category: 'fact',
          review: i % 9 === 0 ? 'deprecated' : 'approved',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        }),
      );
      const raw = `${sentence(8)}\n\n${sentence(12)}\n`;
      return parseMemoryDocument(`# ${path}\n\n${raw}\n${blocks.join('\n\n----\n\n')}\n`, path);
    });
  }

  it('finds exactly what comparing every text finds, first match included', () => {
    const docs = documents();
    const ids = docs.flatMap((d) => d.units.map((u) => u.memoryId));
    const index = new DedupIndex();
    let found = 0;
    for (let i = 0; i < 3000; i += 1) {
      const text = sentence(3 + Math.floor(next() * 12));
      const except = i % 4 === 0 ? ids[i % ids.length] : undefined;
      const result = findDuplicate(docs, text, except, index);
      const got =
        result?.existing.kind === 'RAW'
          ? `RAW@${result.existing.path}:${result.existing.memoryId.match(/#L(\d+)/)?.[1]}`
          : result?.existing.memoryId;
      expect(got, text).toBe(byTheBook(docs, text, except));
      if (got) found += 1;
    }
    expect(found).toBeGreaterThan(100);
  }, 60_000);

  it('follows documents that are added, replaced and removed, over many syncs', () => {
    const index = new DedupIndex();
    let docs = documents(3);
    let checked = 0;
    for (let round = 0; round < 60; round += 1) {
      // A new day's file, a re-parsed file (a new object for the same path), a file gone.
      if (round % 3 === 0) docs = [...docs, ...documents(1, docs.length + 1)];
      if (round % 3 === 1)
        docs = docs.map((d, i) => (i === round % docs.length ? documents(1, i + 1)[0]! : d));
      if (round % 3 === 2 && docs.length > 2)
        docs = docs.filter((_, i) => i !== round % docs.length);
      for (let i = 0; i < 20; i += 1) {
        const text = sentence(3 + Math.floor(next() * 12));
        const result = findDuplicate(docs, text, undefined, index);
        const got =
          result?.existing.kind === 'RAW'
            ? `RAW@${result.existing.path}:${result.existing.memoryId.match(/#L(\d+)/)?.[1]}`
            : result?.existing.memoryId;
        expect(got, text).toBe(byTheBook(docs, text));
        checked += got ? 1 : 0;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});

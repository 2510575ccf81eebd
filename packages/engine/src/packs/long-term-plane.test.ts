import type { MemorySearchResult } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { recallUnits, type SearchMemoryFn } from './long-term-plane';

/** A unit hit; `review` undefined for an index that does not report it. */
const hit = (n: number, review?: string): MemorySearchResult => ({
  path: '2026-05-01.md',
  startLine: n,
  endLine: n,
  score: 100 - n,
  snippet: `unit ${n}`,
  memoryId: `UNIT:${n}`,
  kind: 'UNIT',
  ...(review ? { review } : {}),
});

/** A search over fixed hits that honours the review filter and the limit, and logs each call. */
function searchOver(hits: MemorySearchResult[], reported = true) {
  const calls: string[][] = [];
  const search: SearchMemoryFn = async ({ limit = 10, filters }) => {
    const wanted = filters?.review ?? [];
    calls.push([...wanted]);
    return hits
      .filter((h) => wanted.includes(h.review ?? ''))
      .slice(0, limit)
      .map((h) => (reported ? h : { ...h, review: undefined }));
  };
  return { search, calls };
}

describe('recallUnits', () => {
  it('takes every review state from one recall when it holds enough approved units', async () => {
    const hits = [hit(1, 'draft'), ...Array.from({ length: 14 }, (_, i) => hit(i + 2, 'approved'))];
    const { search, calls } = searchOver(hits);
    const units = await recallUnits(search, 'deploy');
    expect(calls).toHaveLength(1);
    expect(units.filter((u) => u.review === 'approved')).toHaveLength(12);
    expect(units.find((u) => u.review === 'draft')?.hit.memoryId).toBe('UNIT:1');
  });

  it('asks for approved units alone when drafts filled the first recall', async () => {
    const drafts = Array.from({ length: 20 }, (_, i) => hit(i + 1, 'draft'));
    const { search, calls } = searchOver([...drafts, hit(30, 'approved')]);
    const units = await recallUnits(search, 'deploy');
    expect(calls).toEqual([['approved', 'draft', 'deprecated'], ['approved']]);
    expect(units.filter((u) => u.review === 'approved').map((u) => u.hit.memoryId)).toEqual([
      'UNIT:30',
    ]);
    expect(units.filter((u) => u.review === 'draft')).toHaveLength(4);
  });

  it('asks once per state an index that does not report review states', async () => {
    const { search, calls } = searchOver([hit(1, 'approved'), hit(2, 'deprecated')], false);
    const units = await recallUnits(search, 'deploy');
    expect(calls).toEqual([
      ['approved', 'draft', 'deprecated'],
      ['approved'],
      ['draft'],
      ['deprecated'],
    ]);
    expect(units.map((u) => [u.hit.memoryId, u.review])).toEqual([
      ['UNIT:1', 'approved'],
      ['UNIT:2', 'deprecated'],
    ]);
  });
});

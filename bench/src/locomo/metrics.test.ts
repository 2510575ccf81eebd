import { describe, expect, it } from 'vitest';
import { createBm25Index, tokenize } from './bm25';
import { normalizeEvidence, parseSessionDate } from './dataset';
import { hitAt1, ndcgAtK, recallAtK, scoreQuestion, summarize } from './metrics';

const gain = (rank: number) => 1 / Math.log2(rank + 2);

describe('retrieval metrics', () => {
  const evidence = new Set(['D1:2', 'D3:4']);

  it('counts a hit at 1 only when the top result is evidence', () => {
    expect(hitAt1(['D1:2', 'D9:9'], evidence)).toBe(1);
    expect(hitAt1([undefined, 'D1:2'], evidence)).toBe(0);
    expect(hitAt1([], evidence)).toBe(0);
  });

  it('measures recall within the first k ranks, counting a turn once', () => {
    const ranked = ['D9:9', 'D1:2', 'D1:2', undefined, 'D7:1', 'D3:4'];
    expect(recallAtK(ranked, evidence, 5)).toBe(0.5);
    expect(recallAtK(ranked, evidence, 10)).toBe(1);
    expect(recallAtK(ranked, new Set(), 5)).toBe(0);
  });

  it('normalizes DCG by the ideal over min(|evidence|, k) relevant ranks', () => {
    expect(ndcgAtK(['D1:2', 'D3:4'], evidence, 5)).toBeCloseTo(1, 10);
    const dcg = gain(1) + gain(4);
    expect(ndcgAtK(['x', 'D3:4', 'D3:4', 'y', 'D1:2'], evidence, 5)).toBeCloseTo(
      dcg / (gain(0) + gain(1)),
      10,
    );
    const many = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(ndcgAtK(['a', 'b', 'c', 'd', 'e'], many, 5)).toBeCloseTo(1, 10);
    expect(ndcgAtK(['q', 'r'], evidence, 5)).toBe(0);
  });

  it('averages per question, overall and per category', () => {
    const summary = summarize([
      { category: 1, scores: scoreQuestion(['D1:2'], ['D1:2']) },
      { category: 2, scores: scoreQuestion(['zz'], ['D1:2', 'D3:4']) },
    ]);
    expect(summary.all).toMatchObject({ questions: 2, hit1: 0.5, recall5: 0.5, recall10: 0.5 });
    expect(summary['1']).toMatchObject({ questions: 1, hit1: 1, ndcg5: 1 });
    expect(summary['2']).toMatchObject({ questions: 1, hit1: 0, ndcg5: 0 });
  });
});

describe('BM25 reference', () => {
  it('tokenizes to lowercase alphanumeric runs without stop words', () => {
    expect(tokenize('When did Caroline go to the LGBTQ support-group? In 2023!')).toEqual([
      'caroline',
      'go',
      'lgbtq',
      'support',
      'group',
      '2023',
    ]);
  });

  it('scores with k1 1.2, b 0.75 and the smoothed idf', () => {
    const index = createBm25Index([
      { id: 'a', text: 'apple banana' },
      { id: 'b', text: 'banana cherry cherry date' },
      { id: 'c', text: 'elderberry fig' },
    ]);
    const [hit] = index.search('apple', 10);
    // df 1 of 3 docs; doc length 2, average length 8/3.
    const idf = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
    const expected = (idf * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 2) / (8 / 3)));
    expect(hit).toEqual({ id: 'a', score: expect.closeTo(expected, 10) });
  });

  it('ranks rarer terms, more matches and shorter documents higher', () => {
    const index = createBm25Index([
      {
        id: 'long',
        text: 'pottery class with friends and a long story about the weekend at the lake',
      },
      { id: 'short', text: 'pottery class' },
      { id: 'other', text: 'camping trip with the kids' },
      { id: 'both', text: 'camping and pottery' },
    ]);
    expect(index.search('pottery', 10).map((hit) => hit.id)).toEqual(['short', 'both', 'long']);
    expect(index.search('camping pottery', 10)[0]!.id).toBe('both');
    expect(index.search('the and with', 10)).toEqual([]);
    expect(index.search('pottery', 1)).toHaveLength(1);
  });
});

describe('LoCoMo data helpers', () => {
  it('parses session dates and refuses other shapes', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')?.toISOString()).toBe(
      '2023-05-08T13:56:00.000Z',
    );
    expect(parseSessionDate('12:05 am on 1 January, 2024')?.toISOString()).toBe(
      '2024-01-01T00:05:00.000Z',
    );
    expect(parseSessionDate('yesterday')).toBeUndefined();
    expect(parseSessionDate('1:00 pm on 31 February, 2023')).toBeUndefined();
  });

  it('repairs the evidence slips found in the data and drops the rest', () => {
    expect(normalizeEvidence(['D8:6; D9:17', 'D', 'D:11:26', 'D1:3', 'D1:3'])).toEqual({
      ids: ['D8:6', 'D9:17', 'D11:26', 'D1:3'],
      dropped: 1,
    });
  });
});

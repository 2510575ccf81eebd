import { describe, expect, it } from 'vitest';
import { wordStem } from './word-stem';

describe('word stems', () => {
  it('meets the forms of a word on one stem, as the search index stores them', () => {
    expect(new Set(['cancel', 'cancelled', 'cancellation', 'cancels'].map(wordStem)).size).toBe(1);
    expect(new Set(['approve', 'approves', 'approval'].map(wordStem)).size).toBe(1);
    expect(new Set(['release', 'releases', 'released', 'releasing'].map(wordStem)).size).toBe(1);
    expect(wordStem('retries')).toBe(wordStem('retried'));
    expect(wordStem('header')).not.toBe(wordStem('head'));
  });
});

import { describe, expect, it } from 'vitest';
import { textMemo } from './text-memo';

describe('textMemo', () => {
  it('keeps values within its character bound, oldest out first, and skips long texts', () => {
    const memo = textMemo<number>(640);
    memo.set('x'.repeat(11), 1);
    expect(memo.get('x'.repeat(11))).toBeUndefined();
    for (let n = 0; n < 100; n += 1) memo.set(`text-${String(n).padStart(4, '0')}`, n);
    // 71 texts of 9 characters fit in 640: the oldest 29 are gone.
    expect(memo.get('text-0028')).toBeUndefined();
    expect(memo.get('text-0029')).toBe(29);
    expect(memo.get('text-0099')).toBe(99);
  });
});

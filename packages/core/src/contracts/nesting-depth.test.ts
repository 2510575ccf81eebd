import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, nestedDeeperThan } from './nesting-depth';

function deep(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

describe('nestedDeeperThan', () => {
  it('counts levels of arrays and objects without recursing, however deep', () => {
    expect(nestedDeeperThan('text', 1)).toBe(false);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true);
    expect(nestedDeeperThan(deep(MAX_NESTING_DEPTH), MAX_NESTING_DEPTH)).toBe(false);
    expect(nestedDeeperThan(deep(MAX_NESTING_DEPTH + 1), MAX_NESTING_DEPTH)).toBe(true);
    expect(nestedDeeperThan(deep(200_000), MAX_NESTING_DEPTH)).toBe(true);
  });

  it('ends on a cycle (infinitely deep) and on a wide value', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(nestedDeeperThan(cycle, MAX_NESTING_DEPTH)).toBe(true);
    const wide = Array.from({ length: 100_000 }, (_, i) => ({ i, tags: [i] }));
    expect(nestedDeeperThan(wide, MAX_NESTING_DEPTH)).toBe(false);
  });
});

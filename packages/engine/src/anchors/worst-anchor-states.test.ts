import { describe, expect, it } from 'vitest';
import type { AnchorCheck, AnchorState } from './anchor-types';
import { worstAnchorStates } from './worst-anchor-states';

const check = (memoryId: string, state: AnchorState): AnchorCheck => ({
  anchor: { memoryId, path: 'src/a.ts', spanHash: '0123456789abcdef', commit: 'c0ffee' },
  state,
  head: 'c0ffee',
  checkedAt: '2026-01-01T00:00:00.000Z',
});

describe('worstAnchorStates', () => {
  it("gives each unit its worst anchor's state, whatever the order", () => {
    const states = worstAnchorStates([
      check('UNIT:a', 'moved'),
      check('UNIT:a', 'deleted'),
      check('UNIT:a', 'changed'),
      check('UNIT:b', 'fresh'),
      check('UNIT:b', 'unverifiable'),
      check('UNIT:c', 'unverifiable'),
      check('UNIT:c', 'moved'),
    ]);
    expect(Object.fromEntries(states)).toEqual({
      'UNIT:a': 'deleted',
      'UNIT:b': 'fresh',
      'UNIT:c': 'moved',
    });
  });

  it('knows nothing of a unit without checks', () => {
    expect(worstAnchorStates([]).size).toBe(0);
  });
});

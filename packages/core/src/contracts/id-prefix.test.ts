import { describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import {
  FIX_PATTERN_ID_KIND,
  idPrefixOf,
  matchIdPrefix,
  NODE_ID_KIND,
  resolveIdPrefix,
  UNIT_ID_KIND,
} from './id-prefix';

const A = 'UNIT:6c2f615d-0000-4000-8000-000000000001';
const B = 'UNIT:6c2f615d-0000-4000-8000-000000000002';
const C = 'UNIT:7d00aa11-0000-4000-8000-000000000003';

function errorOf(run: () => unknown): CairnError {
  try {
    run();
  } catch (error) {
    if (CairnError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a CairnError');
}

describe('id prefixes', () => {
  it('normalizes a start of an id, with or without its tag, in any case', () => {
    expect(idPrefixOf('7d00', UNIT_ID_KIND)).toBe('UNIT:7d00');
    expect(idPrefixOf('unit:7D00AA', UNIT_ID_KIND)).toBe('UNIT:7d00aa');
    expect(idPrefixOf('fix-1a2b', FIX_PATTERN_ID_KIND)).toBe('FIX-1a2b');
    expect(idPrefixOf('node:1a2b3c4d', NODE_ID_KIND)).toBe('node:1a2b3c4d');
    // Too short, or not hex where hex is due.
    expect(idPrefixOf('7d0', UNIT_ID_KIND)).toBeUndefined();
    expect(idPrefixOf('zzzz', UNIT_ID_KIND)).toBeUndefined();
    expect(idPrefixOf('RAW:notes.md#L1-L2', UNIT_ID_KIND)).toBeUndefined();
  });

  it('resolves a unique start and keeps a whole id as it is', () => {
    expect(resolveIdPrefix('7d00', UNIT_ID_KIND, [A, B, C])).toBe(C);
    expect(resolveIdPrefix('UNIT:6c2f615d-0000-4000-8000-0000000000', UNIT_ID_KIND, [A])).toBe(A);
    expect(resolveIdPrefix(B, UNIT_ID_KIND, [])).toBe(B);
  });

  it('an ambiguous start is CONFLICT listing the candidates; none is NOT_FOUND', () => {
    const ambiguous = errorOf(() => resolveIdPrefix('6c2f', UNIT_ID_KIND, [A, B, C]));
    expect(ambiguous.code).toBe('CONFLICT');
    expect(ambiguous.message).toContain(A);
    expect(ambiguous.message).toContain(B);
    expect(ambiguous.details).toMatchObject({ candidates: [A, B] });
    expect(errorOf(() => resolveIdPrefix('abcd', UNIT_ID_KIND, [A])).code).toBe('NOT_FOUND');
    expect(errorOf(() => resolveIdPrefix('nope', UNIT_ID_KIND, [A])).code).toBe('INVALID_INPUT');
    expect(matchIdPrefix('6c2f', UNIT_ID_KIND, [A, A])).toEqual({ ok: true, id: A });
  });
});

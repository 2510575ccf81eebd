import { describe, expect, it } from 'vitest';
import {
  decodeRecordHeader,
  encodeRecordHeader,
  type MemoryRecordMeta,
  recordKindOf,
  recordTrustOf,
} from './memory-record';

const meta: MemoryRecordMeta = {
  kind: 'fix_pattern',
  trustClass: 'approved',
  namespace: 'team-a',
  repo: 'shop',
  createdAt: '2026-05-01T09:00:00.000Z',
  runRef: { kind: 'run', id: 's-42' },
};

describe('record headers (seed 004 §6.2)', () => {
  it('round-trips the metadata through the header line', () => {
    const line = encodeRecordHeader(meta);
    expect(line.startsWith('<!-- cairn:record ')).toBe(true);
    expect(decodeRecordHeader(line)).toEqual(meta);
    expect(decodeRecordHeader(`  ${line}  `)).toEqual(meta);
  });

  it('reads a damaged or hostile header as no header', () => {
    expect(decodeRecordHeader('<!-- cairn:record {"kind":"fix_pattern"} -->')).toBeUndefined();
    expect(decodeRecordHeader('<!-- cairn:record not json -->')).toBeUndefined();
    const wrongKind = encodeRecordHeader({ ...meta, kind: 'doc' as never });
    expect(decodeRecordHeader(wrongKind)).toBeUndefined();
    const spaced = encodeRecordHeader({ ...meta, repo: 'a repo' });
    expect(decodeRecordHeader(spaced)).toBeUndefined();
    expect(decodeRecordHeader('# Fix pattern')).toBeUndefined();
  });

  it('gives markdown chunks doc / long_term_shadow and units their trust class', () => {
    expect(recordKindOf({ kind: 'RAW' })).toBe('doc');
    expect(recordKindOf({ kind: 'UNIT', review: 'approved' })).toBe('long_term_shadow');
    expect(recordKindOf({ kind: 'RAW', record: meta })).toBe('fix_pattern');
    expect(recordTrustOf({ kind: 'RAW' })).toBe('raw');
    expect(recordTrustOf({ kind: 'UNIT', review: 'approved' })).toBe('approved');
    expect(recordTrustOf({ kind: 'UNIT', review: 'draft' })).toBe('derived');
    expect(recordTrustOf({ kind: 'RAW', record: { ...meta, trustClass: 'derived' } })).toBe(
      'derived',
    );
  });
});

import type { MemoryRecordMeta } from '@cairn/core';

/** The record columns of a chunk row (seed 004 §6.2), as a query selects them. */
export interface RecordColumns {
  recordKind: string;
  trustClass: string;
  namespace: string | null;
  repo: string | null;
  runRefKind: string | null;
  runRefId: string | null;
  createdAt: string | null;
}

/** A record's metadata back from its columns (markdown chunks have no namespace). */
export function recordOfRow(row: RecordColumns): MemoryRecordMeta | undefined {
  if (row.recordKind !== 'run_digest' && row.recordKind !== 'fix_pattern') return undefined;
  return {
    kind: row.recordKind,
    trustClass: row.trustClass as MemoryRecordMeta['trustClass'],
    namespace: row.namespace ?? '',
    repo: row.repo ?? '',
    createdAt: row.createdAt ?? '',
    ...(row.runRefKind && row.runRefId
      ? { runRef: { kind: row.runRefKind, id: row.runRefId } }
      : {}),
  };
}

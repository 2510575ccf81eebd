import { type MemoryChunk, recordKindOf, recordTrustOf, redactSecrets } from '@cairn/core';
import type { Mem0Metadata } from './mem0-store';

/** A unit's provenance (its `source`) sent to Mem0, at most: pointers, not a document. */
const MAX_PROVENANCE = 500;

/** The metadata every mirrored entry carries: enough to map a hit back to Cairn and to filter on. */
export function chunkMetadata(
  chunk: MemoryChunk,
  pool: string,
  partition: { namespace: string; repo: string },
): Mem0Metadata {
  return {
    namespace: partition.namespace,
    repo: partition.repo,
    scope: 'project',
    pool,
    path: chunk.path,
    kind: chunk.kind,
    chunkId: chunk.id,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    ...(chunk.memoryId ? { memoryId: chunk.memoryId } : {}),
    ...(chunk.category ? { category: chunk.category } : {}),
    ...(chunk.review ? { review: chunk.review } : {}),
    // Seed 004 §6.2: every entry's record kind and trust class, a task-history record's run.
    record_kind: recordKindOf(chunk),
    trust_class: recordTrustOf(chunk),
    ...(chunk.record?.runRef
      ? { run_ref_kind: chunk.record.runRef.kind, run_ref_id: chunk.record.runRef.id }
      : {}),
    // Mem0 keeps its own `createdAt` on every entry and drops ours: hence another name.
    ...(chunk.createdAt ? { unitCreatedAt: chunk.createdAt } : {}),
    // Seed 004 §6.3: the unit's provenance pointers (runs, tool events, commits), redacted.
    ...(chunk.source
      ? { provenance: redactSecrets(chunk.source).text.slice(0, MAX_PROVENANCE) }
      : {}),
  };
}

import { defineIndexBackend, type IndexedBackend } from '@cairn/index-kit';
import { canFallBack } from './qdrant-errors';
import { QDRANT_PUSHED_FILTERS } from './qdrant-filters';
import { QdrantIndex } from './qdrant-index';
import {
  defaultRepo,
  type QdrantBackendOptions,
  type ResolvedQdrantOptions,
  resolveQdrantOptions,
} from './qdrant-options';
import type { QdrantRefreshStats } from './qdrant-refresh';

const hybrid = { semantic: true, keyword: true, filters: QDRANT_PUSHED_FILTERS, records: true };

/** The package's entry points, all built from its index registration. */
export const qdrant = defineIndexBackend<
  QdrantBackendOptions,
  ResolvedQdrantOptions,
  QdrantRefreshStats
>({
  type: 'qdrant',
  name: 'Qdrant (markdown in .cairn/memory/, hybrid search in a Qdrant collection)',
  engine: 'Qdrant',
  capabilities: hybrid,
  // Without sparse vectors there is no keyword arm.
  capabilitiesFor: (options) => (options.sparse ? hybrid : { ...hybrid, keyword: false }),
  parseOptions: (input) => resolveQdrantOptions(input),
  canFallBack,
  create: ({ rootDir, options, warn }) =>
    new QdrantIndex(options, options.repo ?? defaultRepo(rootDir), warn),
});

/**
 * The Qdrant index as the engine registers it: the project's partition of
 * one collection per namespace, dense + sparse hybrid search fused by
 * Qdrant's RRF, payload filters pushed down (path prefixes are checked on
 * each hit).
 */
export const qdrantIndex = qdrant.index;

/** Storage is the file workspace's (markdown, atomic writes); only search goes to Qdrant. */
export const qdrantCapabilities = qdrant.capabilities;

export type QdrantBackend = IndexedBackend<QdrantRefreshStats>;

/**
 * A MemoryBackend whose storage is the file workspace (markdown in
 * `.cairn/memory/` stays the source of truth) and whose search is hybrid
 * dense + sparse recall over the project's partition of a Qdrant
 * collection. When Qdrant is missing, unreachable or failing, search falls
 * back to `fallback` (the engine passes the file index) with a warning.
 */
export const createQdrantBackend = qdrant.createBackend;

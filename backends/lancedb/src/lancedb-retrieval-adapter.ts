import type { RetrievalAdapterFactoryOptions, RetrievalAdapterRegistration } from '@cairn/core';
import {
  type AdapterFallback,
  createIndexedRetrievalAdapter,
  type IndexedRetrievalAdapter,
  recallCapabilities,
  type SourcePool,
} from '@cairn/index-kit';
import { lancedbIndex } from './lancedb-backend';
import type { LancedbRefreshStats } from './refresh-pool';

export const lancedbRetrievalCapabilities = recallCapabilities(lancedbIndex);

export type LancedbRetrievalAdapter = IndexedRetrievalAdapter<LancedbRefreshStats>;

/**
 * The LanceDB retrieval adapter (seed 001's primary target): the workspace
 * (hot) and registered pool folders in one table, recalled by hybrid
 * vector + full-text search with pools, agents and metadata pushed down
 * as filters. When LanceDB is missing or fails, recall answers from
 * `fallback` (the engine passes the file adapter) and `status()` says why.
 */
export function createLancedbRetrievalAdapter(
  factory: RetrievalAdapterFactoryOptions,
  composition: { fallback?: AdapterFallback; sourcePools?: readonly SourcePool[] } = {},
): LancedbRetrievalAdapter {
  return createIndexedRetrievalAdapter(lancedbIndex, factory, composition);
}

/** The adapter alone, without a fallback; the engine builds it from `lancedbIndex` instead. */
export const lancedbRetrievalAdapter: RetrievalAdapterRegistration = {
  id: 'lancedb',
  capabilities: lancedbRetrievalCapabilities,
  create: (factory) => createLancedbRetrievalAdapter(factory),
};

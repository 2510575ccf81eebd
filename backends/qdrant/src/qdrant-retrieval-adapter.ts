import type { RetrievalAdapterFactoryOptions, RetrievalAdapterRegistration } from '@cairn/core';
import {
  type AdapterFallback,
  createIndexedRetrievalAdapter,
  type IndexedRetrievalAdapter,
  recallCapabilities,
  type SourcePool,
} from '@cairn/index-kit';
import { qdrantIndex } from './qdrant-backend';
import type { QdrantRefreshStats } from './qdrant-refresh';

export const qdrantRetrievalCapabilities = recallCapabilities(qdrantIndex);

export type QdrantRetrievalAdapter = IndexedRetrievalAdapter<QdrantRefreshStats>;

/**
 * The Qdrant retrieval adapter: the workspace (hot) and registered pool
 * folders in the project's partition, recalled by dense + sparse hybrid
 * search with partition, pools, tiers and metadata pushed down as payload
 * filters. When the client is missing or the server fails, recall answers
 * from `fallback` (the engine passes the file adapter) with a warning.
 */
export function createQdrantRetrievalAdapter(
  factory: RetrievalAdapterFactoryOptions,
  composition: { fallback?: AdapterFallback; sourcePools?: readonly SourcePool[] } = {},
): QdrantRetrievalAdapter {
  return createIndexedRetrievalAdapter(qdrantIndex, factory, composition);
}

/** The adapter alone, without a fallback; the engine builds it from `qdrantIndex` instead. */
export const qdrantRetrievalAdapter: RetrievalAdapterRegistration = {
  id: 'qdrant',
  capabilities: qdrantRetrievalCapabilities,
  create: (factory) => createQdrantRetrievalAdapter(factory),
};

import type { IndexedRetrievalAdapter } from '@cairn/index-kit';
import { qdrant } from './qdrant-backend';
import type { QdrantRefreshStats } from './qdrant-refresh';

export const qdrantRetrievalCapabilities = qdrant.retrievalCapabilities;

export type QdrantRetrievalAdapter = IndexedRetrievalAdapter<QdrantRefreshStats>;

/**
 * The Qdrant retrieval adapter: the workspace (hot) and registered pool
 * folders in the project's partition, recalled by dense + sparse hybrid
 * search with partition, pools, tiers and metadata pushed down as payload
 * filters. When the client is missing or the server fails, recall answers
 * from `fallback` (the engine passes the file adapter) with a warning.
 */
export const createQdrantRetrievalAdapter = qdrant.createRetrievalAdapter;

/** The adapter alone, without a fallback; the engine builds it from `qdrantIndex` instead. */
export const qdrantRetrievalAdapter = qdrant.retrievalAdapter;

import type { IndexedRetrievalAdapter } from '@cairn/index-kit';
import { lancedb } from './lancedb-backend';
import type { LancedbRefreshStats } from './refresh-pool';

export const lancedbRetrievalCapabilities = lancedb.retrievalCapabilities;

export type LancedbRetrievalAdapter = IndexedRetrievalAdapter<LancedbRefreshStats>;

/**
 * The LanceDB retrieval adapter (seed 001's primary target): the workspace
 * (hot) and registered pool folders in one table, recalled by hybrid
 * vector + full-text search with pools, agents and metadata pushed down
 * as filters. When LanceDB is missing or fails, recall answers from
 * `fallback` (the engine passes the file adapter) and `status()` says why.
 */
export const createLancedbRetrievalAdapter = lancedb.createRetrievalAdapter;

/** The adapter alone, without a fallback; the engine builds it from `lancedbIndex` instead. */
export const lancedbRetrievalAdapter = lancedb.retrievalAdapter;

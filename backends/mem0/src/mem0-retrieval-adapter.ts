import type { IndexedRetrievalAdapter } from '@cairn/index-kit';
import { mem0 } from './mem0-backend';
import type { Mem0SyncStats } from './mirror';

/** Vector recall through Mem0; its BM25 only re-ranks vector hits, so no keyword guarantee. */
export const mem0RetrievalCapabilities = mem0.retrievalCapabilities;

export type Mem0RetrievalAdapter = IndexedRetrievalAdapter<Mem0SyncStats>;

/**
 * The Mem0 retrieval adapter: the workspace (hot pool) and registered pool
 * folders mirrored into Mem0 and recalled by vector similarity, with
 * pools, review state and stored metadata pushed down as Mem0 filters.
 * When Mem0 is missing or fails, recall answers from `fallback` (the
 * engine passes the file adapter) with a warning.
 */
export const createMem0RetrievalAdapter = mem0.createRetrievalAdapter;

/** The adapter alone, without a fallback; the engine builds it from `mem0Index` instead. */
export const mem0RetrievalAdapter = mem0.retrievalAdapter;

import type { RetrievalAdapterFactoryOptions, RetrievalAdapterRegistration } from '@cairn/core';
import {
  type AdapterFallback,
  createIndexedRetrievalAdapter,
  type IndexedRetrievalAdapter,
  recallCapabilities,
  type SourcePool,
} from '@cairn/index-kit';
import { mem0Index } from './mem0-backend';
import type { Mem0SyncStats } from './mirror';

/** Vector recall through Mem0; its BM25 only re-ranks vector hits, so no keyword guarantee. */
export const mem0RetrievalCapabilities = recallCapabilities(mem0Index);

export type Mem0RetrievalAdapter = IndexedRetrievalAdapter<Mem0SyncStats>;

/**
 * The Mem0 retrieval adapter: the workspace (hot pool) and registered pool
 * folders mirrored into Mem0 and recalled by vector similarity, with
 * pools, review state and stored metadata pushed down as Mem0 filters.
 * When Mem0 is missing or fails, recall answers from `fallback` (the
 * engine passes the file adapter) with a warning.
 */
export function createMem0RetrievalAdapter(
  factory: RetrievalAdapterFactoryOptions,
  composition: { fallback?: AdapterFallback; sourcePools?: readonly SourcePool[] } = {},
): Mem0RetrievalAdapter {
  return createIndexedRetrievalAdapter(mem0Index, factory, composition);
}

/** The adapter alone, without a fallback; the engine builds it from `mem0Index` instead. */
export const mem0RetrievalAdapter: RetrievalAdapterRegistration = {
  id: 'mem0',
  capabilities: mem0RetrievalCapabilities,
  create: (factory) => createMem0RetrievalAdapter(factory),
};

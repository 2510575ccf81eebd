import { createFileBackend, createFileRetrievalAdapter } from '@cairn/backend-file';
import {
  type MemoryIndexRegistration,
  registerMemoryBackend,
  registerRetrievalAdapter,
} from '@cairn/core';
import {
  createIndexedBackend,
  createIndexedRetrievalAdapter,
  indexedBackendCapabilities,
  recallCapabilities,
} from '@cairn/index-kit';

/**
 * Registers the backend and the retrieval adapter built from an index
 * (LanceDB, Qdrant, Mem0, qmd): storage through the file workspace,
 * search and recall through the index, and the file index as the loud
 * fallback when the engine is missing or failing. The registries keep
 * factories, so each project gets instances built with its own options.
 */
export function registerIndex(index: MemoryIndexRegistration): void {
  registerMemoryBackend({
    type: index.type,
    capabilities: indexedBackendCapabilities,
    create: ({ options }) =>
      createIndexedBackend(index, options ?? {}, { fallback: createFileBackend }),
  });
  registerRetrievalAdapter({
    id: index.type,
    capabilities: recallCapabilities(index),
    create: (factory) =>
      createIndexedRetrievalAdapter(index, factory, { fallback: createFileRetrievalAdapter }),
  });
}

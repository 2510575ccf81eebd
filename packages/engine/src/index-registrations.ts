import { createFileBackend, createFileRetrievalAdapter, fileIndex } from '@cairn/backend-file';
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

/** The index behind each registered engine, by type: the engine shares one between its two faces. */
const indexes = new Map<string, MemoryIndexRegistration>([
  [fileIndex.type, fileIndex as unknown as MemoryIndexRegistration],
]);

/** The index registration of an engine (`file`, or one a package registered), if any. */
export function indexRegistration(type: string): MemoryIndexRegistration | undefined {
  return indexes.get(type);
}

/**
 * Registers the backend and the retrieval adapter built from an index
 * (LanceDB, Qdrant, Mem0, qmd): storage through the file workspace,
 * search and recall through the index, and the file index as the loud
 * fallback when the engine is missing or failing. The registries keep
 * factories, so each project gets instances built with its own options.
 */
export function registerIndex(index: MemoryIndexRegistration): void {
  indexes.set(index.type, index);
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

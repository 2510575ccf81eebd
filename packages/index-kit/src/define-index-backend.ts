import type {
  MemoryIndexCommonOptions,
  MemoryIndexRegistration,
  MemoryIndexStats,
  RetrievalAdapterCapabilities,
  RetrievalAdapterFactoryOptions,
  RetrievalAdapterRegistration,
} from '@cairn/core';
import {
  type BackendFallback,
  createIndexedBackend,
  type IndexedBackend,
  indexedBackendCapabilities,
} from './indexed-backend';
import {
  type AdapterFallback,
  createIndexedRetrievalAdapter,
  type IndexedRetrievalAdapter,
  recallCapabilities,
  type SourcePool,
} from './indexed-retrieval-adapter';

/** What whoever composes passes to a backend built on an index: the file backend behind it. */
export interface BackendComposition {
  fallback?: BackendFallback;
}

/** What whoever composes passes to an adapter built on an index: the file adapter behind it. */
export interface AdapterComposition {
  fallback?: AdapterFallback;
  /** Pools whose markdown comes from a source of the engine's (the history records), beside the workspace. */
  sourcePools?: readonly SourcePool[];
}

/**
 * A backend package's entry points, all built from its index registration.
 * The package exports each under its own name: `<id>Index`,
 * `<id>Capabilities`, `create<Id>Backend`, `<id>RetrievalCapabilities`,
 * `create<Id>RetrievalAdapter` and `<id>RetrievalAdapter`.
 */
export interface IndexBackendEntries<
  Input extends object,
  Options extends MemoryIndexCommonOptions,
  Stats extends MemoryIndexStats,
> {
  /** The registration the engine builds both faces from, with the file index as their fallback. */
  readonly index: MemoryIndexRegistration<Options, Stats>;
  /** Static: storage is the file workspace's (markdown, atomic writes) whatever the index. */
  readonly capabilities: typeof indexedBackendCapabilities;
  /** Static: what the index declares for recall (never a graph). */
  readonly retrievalCapabilities: RetrievalAdapterCapabilities;
  /** The adapter alone, without a fallback, as a registry entry (the engine uses `index` instead). */
  readonly retrievalAdapter: RetrievalAdapterRegistration;
  /**
   * A MemoryBackend (seed 000) over the index: storage through the file
   * workspace, search through the index; `composition.fallback` answers
   * search, with a warning, when the engine is missing or failing.
   */
  createBackend(options?: Input, composition?: BackendComposition): IndexedBackend<Stats>;
  /**
   * A MemoryRetrievalAdapter (seed 001) over the index: the workspace and
   * registered pools; `composition.fallback` answers recall, with a warning
   * and the reason in `status()`, when the engine is missing or failing.
   */
  createRetrievalAdapter(
    factory: RetrievalAdapterFactoryOptions,
    composition?: AdapterComposition,
  ): IndexedRetrievalAdapter<Stats>;
}

/**
 * Builds a backend package's entry points from its index registration, so
 * that the package holds only its index, its options schema and its
 * loader. `Input` is the options type `create<Id>Backend` documents; the
 * registration's `parseOptions` checks whatever arrives.
 */
export function defineIndexBackend<
  Input extends object,
  Options extends MemoryIndexCommonOptions,
  Stats extends MemoryIndexStats,
>(index: MemoryIndexRegistration<Options, Stats>): IndexBackendEntries<Input, Options, Stats> {
  const retrievalCapabilities = recallCapabilities(index);
  const createRetrievalAdapter = (
    factory: RetrievalAdapterFactoryOptions,
    composition: AdapterComposition = {},
  ) => createIndexedRetrievalAdapter(index, factory, composition);
  return {
    index,
    capabilities: indexedBackendCapabilities,
    retrievalCapabilities,
    retrievalAdapter: {
      id: index.type,
      capabilities: retrievalCapabilities,
      create: (factory) => createRetrievalAdapter(factory),
    },
    createBackend: (options, composition = {}) =>
      createIndexedBackend(index, options ?? {}, composition),
    createRetrievalAdapter,
  };
}

import {
  createFileBackend,
  createFileRetrievalAdapter,
  type FileBackendOptions,
  fileCapabilities,
  fileIndex,
  fileRetrievalCapabilities,
} from '@cairn/backend-file';
import { createReadonlyBackend, readonlyCapabilities } from '@cairn/backend-readonly';
import {
  type CairnSettings,
  getMemoryBackend,
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
import { embedderFromSettings, rankingFromSettings } from './embeddings';

/**
 * Registers the factories of the builtin backends (`file`, and `readonly`
 * as a read-only view of the file workspace) and of the builtin `file`
 * retrieval adapter. Idempotent; called by `openCairn` rather than at
 * import time so the package stays free of side effects.
 */
export function registerBuiltins(): void {
  if (getMemoryBackend('file')) return;
  registerMemoryBackend({
    type: 'file',
    capabilities: fileCapabilities,
    create: ({ options }) => createFileBackend(options as FileBackendOptions),
  });
  registerMemoryBackend({
    type: 'readonly',
    capabilities: readonlyCapabilities,
    create: ({ options }) =>
      createReadonlyBackend({ inner: createFileBackend(options as FileBackendOptions) }),
  });
  registerRetrievalAdapter({
    id: 'file',
    capabilities: fileRetrievalCapabilities,
    create: createFileRetrievalAdapter,
  });
}

/**
 * The options one project's backend is built with. The builtins search by
 * keyword, or hybrid when settings configure an embedder; any other backend
 * gets `memoryBackendOptions`, plus the configured embedder unless they
 * name one.
 */
export function backendOptionsFor(
  type: string,
  settings: CairnSettings,
  rootDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, unknown> {
  const embedder = embedderFromSettings(settings, rootDir, env);
  if (type === 'file' || type === 'readonly') {
    return embedder ? { embedder, ranking: rankingFromSettings(settings) } : {};
  }
  const configured = namespaced(type, settings);
  return configured.embedder || !embedder ? configured : { ...configured, embedder };
}

/** The shared indexes partitioned by namespace (seed 004 §6.2 `namespace_id`). */
const NAMESPACED = new Set(['lancedb', 'qdrant']);

/**
 * `memoryBackendOptions` with `memory.namespace` as the index's `namespace`
 * partition key unless the options name one. Mem0 keeps its own default
 * (the folder name) while the setting is `default`: its stores were
 * partitioned that way before the setting existed.
 */
function namespaced(type: string, settings: CairnSettings): Record<string, unknown> {
  const configured = settings.memoryBackendOptions as Record<string, unknown>;
  const namespace = settings.memory.namespace;
  if (configured.namespace !== undefined) return configured;
  if (NAMESPACED.has(type) || (type === 'mem0' && namespace !== 'default')) {
    return { ...configured, namespace };
  }
  return configured;
}

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

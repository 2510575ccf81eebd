import { createFileRetrievalAdapter, indexedPoolCounts } from '@cairn/backend-file';
import {
  type CairnSettings,
  formatError,
  type MemoryBackend,
  type MemoryPoolDefinition,
  type MemoryRetrievalAdapter,
  type Resolution,
  type RetrievalAdapterRegistration,
} from '@cairn/core';
import {
  createIndexedRetrievalAdapter,
  DOCUMENTS_POOL_ID,
  documentPoolSource,
  type IndexedBackend,
  type SourcePool,
  warningSink,
} from '@cairn/index-kit';
import { backendOptionsFor, indexRegistration } from './backend-registrations';
// `HistoryRecords` as a type only: the search-only bundle (`cairn search`) never loads the history modules.
import {
  type CompositeRecall,
  createCompositeRecall,
  type EnginePool,
  type HistoryRecords,
  type LineageAccess,
} from './recall';

/** What a project's recall is built from; read when first used (packages may still load). */
export interface ProjectRecallParts {
  rootDir: string;
  env: NodeJS.ProcessEnv;
  settings: () => CairnSettings;
  adapterResolution: () => Resolution<RetrievalAdapterRegistration>;
  /** The project's backend once its package has loaded. */
  backend: () => Promise<MemoryBackend>;
}

export interface ProjectRecall extends CompositeRecall {
  /** Fallbacks of the adapter and failing pools, each once. */
  readonly warnings: readonly string[];
  /** Adds the lineage pools (the full engine does; a search-only process does not). */
  useLineage(access: LineageAccess): void;
  /**
   * Adds the history pool (the full engine does, before the first recall;
   * a search-only process, whose search reads the workspace, does not).
   */
  useHistory(create: (warn: (message: string) => void) => HistoryRecords): void;
}

const hasIndex = (
  backend: MemoryBackend,
): backend is MemoryBackend & Pick<IndexedBackend, 'indexFor'> =>
  typeof (backend as Partial<IndexedBackend>).indexFor === 'function';

/** The index adapter and whether it holds the history pool itself. */
interface IndexAdapter {
  adapter: MemoryRetrievalAdapter;
  carriesHistory: boolean;
}

/**
 * The index adapter `retrievalAdapter` resolves to, built with this
 * project's options. When the backend is built on the same engine, both
 * share its index (one refresh, one open database). An index that stores
 * records also holds the history pool (seed 004 §6.2), and so does its
 * file fallback. A factory refusing the options falls back to the file
 * adapter, loudly.
 */
function createIndexAdapter(
  parts: ProjectRecallParts,
  backend: MemoryBackend,
  warn: (message: string) => void,
  history: HistoryRecords | undefined,
): IndexAdapter {
  const { rootDir, env } = parts;
  const settings = parts.settings();
  const resolution = parts.adapterResolution();
  const id = resolution.resolved;
  const options = backendOptionsFor(id, settings, rootDir, env);
  const registration = indexRegistration(id);
  const carries = history !== undefined && registration?.capabilities.records === true;
  const sourcePools: SourcePool[] = carries ? [history] : [];
  const fallback = id === 'file' ? {} : { fallback: createFileRetrievalAdapter };
  try {
    if (registration && (carries || (backend.type === id && hasIndex(backend)))) {
      const index =
        backend.type === id && hasIndex(backend) ? backend.indexFor(rootDir) : undefined;
      const adapter = createIndexedRetrievalAdapter(
        registration,
        { rootDir, options },
        { ...(index ? { index } : {}), ...fallback, sourcePools },
      );
      return { adapter, carriesHistory: carries };
    }
    return { adapter: resolution.value.create({ rootDir, options }), carriesHistory: false };
  } catch (error) {
    if (id === 'file') throw error;
    warn(`retrieval adapter "${id}" refused its options (${formatError(error)}); using "file"`);
    const adapter = createFileRetrievalAdapter(
      { rootDir, options: backendOptionsFor('file', settings, rootDir, env) },
      { sourcePools: history ? [history] : [] },
    );
    return { adapter, carriesHistory: history !== undefined };
  }
}

/**
 * The project's own documents (cold): README*, AGENTS.md, CLAUDE.md,
 * docs/ and ADR folders by default (`memory.documentGlobs`), chunked by
 * heading and searched through the local file index (`.cairn/index/`),
 * whatever engine recalls the workspace: repository text is not sent to
 * a memory service (Mem0) nor given to an index that reads whole folders
 * (qmd). Undefined when the globs select nothing.
 */
function documentsPool(
  rootDir: string,
  settings: CairnSettings,
  fileOptions: Record<string, unknown>,
): EnginePool | undefined {
  const { documentGlobs, documentMaxFileBytes, documentMaxTotalBytes } = settings.memory;
  if (documentGlobs.length === 0) return undefined;
  const definition: MemoryPoolDefinition = { id: DOCUMENTS_POOL_ID, tier: 'cold', path: '.' };
  const source = documentPoolSource(rootDir, {
    globs: documentGlobs,
    maxFileBytes: documentMaxFileBytes,
    maxTotalBytes: documentMaxTotalBytes,
  });
  let adapter: ReturnType<typeof createFileRetrievalAdapter> | undefined;
  const open = () =>
    (adapter ??= createFileRetrievalAdapter(
      { rootDir, options: fileOptions },
      { sourcePools: [{ definition, source }] },
    ));
  return {
    definition,
    // The adapter's workspace pool is its own business: only the documents are asked for.
    recall: (query) => open().recall({ ...query, poolIds: [DOCUMENTS_POOL_ID] }),
    // How many documents and sections the index holds (`cairn status`, `cairn doctor`).
    describe: async () => {
      const counts = indexedPoolCounts(rootDir, DOCUMENTS_POOL_ID);
      return {
        globs: [...documentGlobs],
        ...(counts ? { documents: counts.files, sections: counts.chunks } : {}),
      };
    },
    close: async () => adapter?.close(),
  };
}

/**
 * The history pool beside the index adapter. When the adapter's index
 * stores records (`MemoryIndexCapabilities.records`: the file index,
 * LanceDB, Qdrant, Mem0) it is one of that adapter's pools and this pool
 * answers nothing: the adapter does. Otherwise (qmd reads whole folders
 * through its CLI; a third-party adapter) the records are indexed by the
 * local file index (`.cairn/index/pools.sqlite`) and recalled here.
 */
function historyEnginePool(
  rootDir: string,
  records: HistoryRecords,
  index: { ready: () => Promise<unknown>; carried: () => boolean },
): EnginePool {
  let adapter: ReturnType<typeof createFileRetrievalAdapter> | undefined;
  const open = () =>
    (adapter ??= createFileRetrievalAdapter(
      { rootDir },
      { sourcePools: [{ definition: records.definition, source: records.source }] },
    ));
  return {
    definition: records.definition,
    carriedByIndex: index.carried,
    async recall(query) {
      await index.ready();
      if (index.carried()) return [];
      return open().recall({ ...query, poolIds: [records.definition.id] });
    },
    describe: () => ({ records: true, indexedBy: index.carried() ? 'adapter' : 'file' }),
    close: async () => {
      await adapter?.close();
      records.close();
    },
  };
}

/**
 * The recall of one project: the adapter `retrievalAdapter`
 * names over the workspace and registered pools, with the lineage pools
 * (warm summaries, cold transcripts) and the project's documents (cold)
 * beside it. Everything opens on first use: a prompt that recalls units
 * opens no lineage and no documents index.
 */
export function createProjectRecall(parts: ProjectRecallParts): ProjectRecall {
  const { warnings, warn } = warningSink();
  let adapter: Promise<MemoryRetrievalAdapter> | undefined;
  let current: MemoryRetrievalAdapter | undefined;
  let carriesHistory = false;
  const settings = parts.settings();
  let history: HistoryRecords | undefined;
  const index = () =>
    (adapter ??= parts.backend().then((backend) => {
      const built = createIndexAdapter(parts, backend, warn, history);
      carriesHistory = built.carriesHistory;
      current = built.adapter;
      return current;
    }));
  let lineage: LineageAccess | undefined;
  const documents = documentsPool(parts.rootDir, settings, {});
  const own: EnginePool[] = documents ? [documents] : [];
  let pools: EnginePool[] = own;
  const composite = createCompositeRecall({
    index,
    pools: () => pools,
    lineage: () => lineage?.open(),
    warn,
  });
  return {
    ...composite,
    get capabilities() {
      return composite.capabilities;
    },
    get warnings() {
      const fromAdapter = (current as { warnings?: readonly string[] } | undefined)?.warnings ?? [];
      // The backend's warnings are its own: a shared index reports through both faces once.
      return [...warnings, ...fromAdapter];
    },
    useLineage(access) {
      lineage?.close();
      lineage = access;
      pools = [...access.pools, ...own];
    },
    useHistory(create) {
      // Task history's records (warm) in the settings' namespace; none when the plane is off.
      if (history || settings.memory.history === 'off') return;
      history = create(warn);
      own.push(
        historyEnginePool(parts.rootDir, history, { ready: index, carried: () => carriesHistory }),
      );
      pools = [...pools, own.at(-1)!];
    },
    async close() {
      await composite.close();
      lineage?.close();
      await (current as { close?: () => Promise<void> } | undefined)?.close?.();
    },
  };
}

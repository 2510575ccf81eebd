import { followWorkspaceChanges, openSearchIndex } from '@cairn/backend-file';
import {
  CairnError,
  type CairnSettings,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  type MemoryBackend,
  monotonicMs,
  type ResolvedSettings,
} from '@cairn/core';
import type { HeadView, MemoryApi, ReindexStats } from './cairn-api';
import type { ProjectRecall } from './project-recall';
import {
  type RecallContext,
  recallQueryOfSearch,
  type SearchHit,
  type SearchRequest,
  searchHitsOfRecall,
} from './recall';
import { type OpenCairnOptions, resolveProject } from './resolve-project';
import { createWorkspaceWriter, type WorkspaceWriter } from './store';
import {
  createUnitLister,
  createUnitStore,
  getMemory,
  type UnitStore,
  type WorkspaceWatch,
  watchWorkspace,
} from './units';

export type { DoctorReport, HeadView, MemoryApi, ReindexStats } from './cairn-api';
export type { SearchHit, SearchRequest };

/** What a search recalls through: the project's recall (`ResolvedProject.recall`). */
export type RecallFn = ProjectRecall['recall'];

/**
 * Searches a project's memory (the workspace: units and notes, hot and
 * warm by default) through its recall, i.e. the retrieval adapter the
 * settings resolve to, with the limits its settings give; hits come back
 * in seed 000's search shape.
 */
export async function searchMemory(
  settings: CairnSettings,
  recall: RecallFn,
  request: SearchRequest,
  context?: RecallContext,
): Promise<SearchHit[]> {
  const { query, snippetChars } = recallQueryOfSearch(settings, request);
  const results = await recall(query, context);
  return searchHitsOfRecall(results, query.query, snippetChars);
}

/** The search of one project, without the rest of `Cairn`. */
export interface MemorySearch {
  readonly rootDir: string;
  readonly settings: CairnSettings;
  readonly backend: MemoryBackend;
  /** Config findings and backend/adapter fallbacks the user should see. */
  readonly warnings: string[];
  search(request: SearchRequest): Promise<SearchHit[]>;
  /** Seed 001 recall over every pool (`cairn recall`-like callers; the pack's documents plane). */
  recall: RecallFn;
  close(): Promise<void>;
}

/**
 * Opens just the search of a project: the same settings, recall and
 * answers as `openCairn(rootDir).search`, without loading the unit store,
 * the lineage or the working memory. `cairn search` starts a process per
 * call, and this keeps what that process loads small.
 */
export async function openMemorySearch(
  rootDir: string,
  options: OpenCairnOptions = {},
): Promise<MemorySearch> {
  const project = await resolveProject(rootDir, options);
  const { settings, backend, recall } = project;
  return {
    rootDir,
    settings,
    backend,
    get warnings() {
      return project.currentWarnings();
    },
    search: (request) => searchMemory(settings, recall.recall, request),
    recall: (query, context) => recall.recall(query, context),
    close: () => recall.close(),
  };
}

/** What the memory part of one project holds: its writer, unit store and the index's watch. */
export interface MemoryState {
  rootDir: string;
  settings: CairnSettings;
  backend: MemoryBackend;
  recall: RecallFn;
  writer: WorkspaceWriter;
  store: UnitStore;
  listUnits: ReturnType<typeof createUnitLister>;
  /** What changed in `.cairn/memory/`, for the search index of this process. */
  indexWatch: WorkspaceWatch;
  /** Lets the shared search index stop following `indexWatch`. */
  unfollow: () => void;
}

/**
 * Opens the memory part of a project: one writer, the unit store, and a
 * workspace watch the search index refreshes from (the files that changed,
 * not a stat of each). `closeMemory` stops both watches.
 */
export function openMemoryState(
  rootDir: string,
  settings: CairnSettings,
  backend: MemoryBackend,
  recall: RecallFn,
  now?: () => Date,
): MemoryState {
  const writer = createWorkspaceWriter(rootDir, backend);
  const store = createUnitStore({ rootDir, settings, writer, ...(now ? { now } : {}) });
  const indexWatch = watchWorkspace(rootDir);
  writer.onWrite((path) => indexWatch.note(path));
  const unfollow = followWorkspaceChanges(rootDir, indexWatch);
  return {
    rootDir,
    settings,
    backend,
    recall,
    writer,
    store,
    listUnits: createUnitLister(),
    indexWatch,
    unfollow,
  };
}

function extractHead(content: string): string {
  const start = content.indexOf(HEAD_START_MARKER);
  const end = content.indexOf(HEAD_END_MARKER);
  if (start === -1 || end < start) return '';
  return content.slice(start + HEAD_START_MARKER.length, end).trim();
}

export async function readHead(state: MemoryState): Promise<HeadView> {
  const { content, exists } = await state.backend.read(state.rootDir);
  return { head: extractHead(content), content, exists };
}

/** The backend's own rebuild (LanceDB, Qdrant, Mem0, qmd), or undefined when it has none. */
async function rebuildBackendIndex(
  state: MemoryState,
  onProgress: (message: string) => void,
): Promise<object | undefined> {
  const { backend, rootDir } = state;
  if (!backend.rebuild || backend.type === 'file' || backend.type === 'readonly') return undefined;
  onProgress(`rebuilding the ${backend.type} index from .cairn/memory/`);
  // UNSUPPORTED: the backend's package fell back to the file backend.
  const stats = await backend.rebuild(rootDir).catch((error: unknown) => {
    if (CairnError.isInstance(error) && error.code === 'UNSUPPORTED') return undefined;
    throw error;
  });
  if (stats) onProgress(`${backend.type} index rebuilt`);
  return stats;
}

/** See `MemoryApi.reindex`. */
export async function reindex(
  state: MemoryState,
  onProgress: (message: string) => void = () => undefined,
): Promise<ReindexStats> {
  const started = monotonicMs();
  const stats = await rebuildBackendIndex(state, onProgress);
  if (stats) return { ...stats, backend: state.backend.type, ms: monotonicMs() - started };
  onProgress('rebuilding the search index under .cairn/index/ from .cairn/memory/');
  const index = openSearchIndex(state.rootDir);
  try {
    const rebuilt = await index.rebuild();
    onProgress(`indexed ${rebuilt.filesScanned} files, ${rebuilt.chunksWritten} chunks`);
    return { backend: 'file', ...rebuilt };
  } finally {
    index.close();
  }
}

/** Stops the unit store's watch and the index's, and lets the shared index forget the latter. */
export function closeMemory(state: MemoryState): void {
  state.store.close();
  state.indexWatch.close();
  state.unfollow();
}

/**
 * The memory part of `Cairn` over `state`; `resolved` are the settings the
 * project resolved, whose ignored values doctor reports. The doctor's
 * checks load when `doctor()` is called, not with every project opened.
 */
export function memoryApi(state: MemoryState, resolved: () => ResolvedSettings): MemoryApi {
  const { store, rootDir, settings, recall } = state;
  return {
    writer: state.writer,
    add: (input) => store.add(input),
    replace: (memoryId, text) => store.replace(memoryId, text),
    remove: (memoryId, at) => store.remove(memoryId, at),
    setReview: (memoryId, review) => store.setReview(memoryId, review),
    patchUnits: (patch) => store.patch(patch),
    documents: () => store.scan(),
    get: (memoryId) => getMemory(rootDir, store.scan, memoryId),
    list: async (filter) => state.listUnits(await store.scan(), filter),
    search: (request, context) => searchMemory(settings, recall, request, context),
    recall: (query, context) => recall(query, context),
    readHead: () => readHead(state),
    reindex: (onProgress) => reindex(state, onProgress),
    doctor: async () => (await import('./memory-doctor')).memoryDoctor(state, resolved()),
  };
}

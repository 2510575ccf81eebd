import type { CairnSettings, MemoryBackend } from '@cairn/core';
import type { ProjectRecall } from './project-recall';
import {
  type RecallContext,
  recallQueryOfSearch,
  type SearchHit,
  type SearchRequest,
  searchHitsOfRecall,
} from './recall';
import { type OpenCairnOptions, resolveProject } from './resolve-project';

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

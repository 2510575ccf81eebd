import {
  CairnError,
  type CairnSettings,
  type MemoryBackend,
  type MemorySearchFilters,
  type MemorySearchResult,
  rawMemoryId,
} from '@cairn/core';
import { type OpenCairnOptions, resolveProject } from './resolve-project';

export interface SearchRequest {
  query: string;
  limit?: number;
  snippetChars?: number;
  filters?: MemorySearchFilters;
}

/** Searches a project's memory through its backend, with the limits its settings give. */
export async function searchMemory(
  rootDir: string,
  settings: CairnSettings,
  backend: MemoryBackend,
  request: SearchRequest,
): Promise<MemorySearchResult[]> {
  if (!backend.search) {
    throw new CairnError('UNSUPPORTED', `The "${backend.type}" backend has no search`, {
      hint: 'switch memoryBackendType to "file" for local search',
    });
  }
  const results = await backend.search(rootDir, {
    limit: settings.limits.searchLimit,
    snippetChars: settings.limits.snippetChars,
    ...request,
  });
  // Every hit gets an id `get` accepts: RAW hits are addressed by line range.
  return results.map((hit) =>
    hit.memoryId ? hit : { ...hit, memoryId: rawMemoryId(hit), kind: hit.kind ?? 'RAW' },
  );
}

/** The search of one project, without the rest of `Cairn`. */
export interface MemorySearch {
  readonly rootDir: string;
  readonly settings: CairnSettings;
  readonly backend: MemoryBackend;
  /** Config findings and backend/adapter fallbacks the user should see. */
  readonly warnings: string[];
  search(request: SearchRequest): Promise<MemorySearchResult[]>;
}

/**
 * Opens just the search of a project: the same settings, backend and
 * answers as `openCairn(rootDir).search`, without loading the unit store,
 * the lineage or the working memory. `cairn search` starts a process per
 * call, and this keeps what that process loads small.
 */
export function openMemorySearch(rootDir: string, options: OpenCairnOptions = {}): MemorySearch {
  const project = resolveProject(rootDir, options);
  const { settings, backend } = project;
  return {
    rootDir,
    settings,
    backend,
    get warnings() {
      return project.currentWarnings();
    },
    search: (request) => searchMemory(rootDir, settings, backend, request),
  };
}

import { resolve } from 'node:path';
import { createFileBackend } from '@cairn/backend-file';
import {
  formatError,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  type MemoryGetOptions,
  type MemoryGetResult,
  type MemorySearchFilters,
  type MemorySearchOptions,
  type MemorySearchResult,
} from '@cairn/core';
import {
  boundSnippet,
  fileStorage,
  reviewStates,
  searchResultOf,
  searchWithFileFallback,
  warningSink,
} from '@cairn/index-kit';
import { type Mem0BackendOptions, resolveMem0Options } from './mem0-options';
import { canFallBack, hitFields, Mem0Project } from './mem0-project';
import type { Mem0Condition, Mem0Hit } from './mem0-store';
import type { Mem0SyncStats } from './mirror';
import { workspaceSource } from './sources';

/** Storage is the file backend's (markdown, atomic writes); only search goes through Mem0. */
export const mem0Capabilities = {
  readable: true,
  writable: true,
  supportsAtomicWrite: true,
  hasConflictResolution: false,
  persistent: true,
} as const satisfies MemoryBackendCapabilities;

export interface Mem0Backend extends MemoryBackend {
  /** Fallbacks and mirror failures, each once. */
  readonly warnings: readonly string[];
  get(rootDir: string, options: MemoryGetOptions): Promise<MemoryGetResult>;
  search(rootDir: string, options: MemorySearchOptions): Promise<MemorySearchResult[]>;
  /** Mirrors the workspace's units and notes into Mem0 (incremental). */
  sync(rootDir: string): Promise<Mem0SyncStats>;
  /** Clears the project's entries in Mem0 and mirrors everything again (`cairn reindex`). */
  rebuild(rootDir: string): Promise<Mem0SyncStats>;
  /** Releases every open Mem0 store. */
  close(): Promise<void>;
}

/** Search filters as Mem0 metadata conditions; what Mem0 cannot express is checked after. */
export function searchConditions(filters: MemorySearchFilters = {}) {
  const where: Record<string, Mem0Condition> = {};
  if (filters.kind?.length) where.kind = { in: [...filters.kind] };
  if (filters.category?.length) where.category = { in: [...filters.category] };
  const reviews = reviewStates(filters);
  if (reviews.only) where.review = { in: reviews.only };
  else if (reviews.excludeDeprecated) where.review = { ne: 'deprecated' };
  const since = filters.since ? Date.parse(filters.since) : undefined;
  const until = filters.until ? Date.parse(filters.until) : undefined;
  const post = (hit: Mem0Hit) => {
    const fields = hitFields(hit);
    if (filters.path && !fields.path.startsWith(filters.path)) return false;
    if (since === undefined && until === undefined) return true;
    const at = fields.createdAt ? Date.parse(fields.createdAt) : Number.NaN;
    if (Number.isNaN(at)) return false;
    return (since === undefined || at >= since) && (until === undefined || at <= until);
  };
  const postFiltered = Boolean(filters.path || since !== undefined || until !== undefined);
  return { where, post, postFiltered };
}

function toSearchResult(hit: Mem0Hit, terms: string[], snippetChars: number): MemorySearchResult {
  return searchResultOf(hitFields(hit), hit.score, boundSnippet(hit.text, terms, snippetChars));
}

/**
 * A MemoryBackend whose storage is the file backend (markdown in
 * `.cairn/memory/` stays the source of truth) and whose search goes through
 * Mem0, into which the workspace's units and notes are mirrored with their
 * ids, review state and place in metadata. When Mem0 is missing or fails,
 * search answers from the file index with a warning. Called without options
 * (as the engine's optional-package loader may), it runs Mem0 OSS offline
 * with the hash embedder.
 */
export function createMem0Backend(options: Mem0BackendOptions = {}): Mem0Backend {
  const resolved = resolveMem0Options(options);
  const { warnings, warn } = warningSink(resolved.onWarning);
  const file = createFileBackend({ getMaxLines: resolved.getMaxLines, onWarning: warn });
  const projects = new Map<string, Mem0Project>();
  const projectOf = (rootDir: string) => {
    const key = resolve(rootDir);
    let project = projects.get(key);
    if (!project) {
      project = new Mem0Project(key, resolved);
      projects.set(key, project);
    }
    return project;
  };
  const sync = (rootDir: string, rebuild = false) =>
    projectOf(rootDir).sync({ sources: [workspaceSource(resolve(rootDir))], rebuild });

  const search = searchWithFileFallback(
    { engine: 'Mem0', file, warn, canFallBack },
    async (rootDir, parsed, terms) => {
      const { where, post, postFiltered } = searchConditions(parsed.filters);
      await sync(rootDir);
      const hits = await projectOf(rootDir).search({
        query: parsed.query,
        topK: postFiltered ? Math.max(parsed.limit * 4, 50) : parsed.limit,
        threshold: resolved.threshold,
        where: { ...where, pool: 'workspace' },
      });
      return hits
        .filter(post)
        .slice(0, parsed.limit)
        .map((hit) => toSearchResult(hit, terms, parsed.snippetChars));
    },
  );

  return {
    warnings,
    type: 'mem0',
    name: 'Mem0 (markdown in .cairn/memory/, mirrored into Mem0 for search)',
    capabilities: mem0Capabilities,
    ...fileStorage(file),
    async write(rootDir, content) {
      const written = await file.write(rootDir, content);
      if (resolved.syncOnWrite) {
        // The markdown is written and is the truth; a Mem0 failure only delays the mirror.
        await sync(rootDir).catch((error) => {
          if (!canFallBack(error)) throw error;
          warn(
            `Mem0 mirror not updated after a write (the next search retries): ${formatError(error)}`,
          );
        });
      }
      return written;
    },
    search,
    sync: (rootDir) => sync(rootDir),
    rebuild: (rootDir) => sync(rootDir, true),
    async close() {
      const open = [...projects.values()];
      projects.clear();
      await Promise.all(open.map((project) => project.close()));
    },
  };
}

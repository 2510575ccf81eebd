import { followWorkspaceChanges, openSearchIndex } from '@cairn/backend-file';
import {
  CairnError,
  type CairnSettings,
  type DocumentIssue,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  isUnsafePathError,
  type MemoryBackend,
  type MemoryQuery,
  monotonicMs,
  type ReviewState,
} from '@cairn/core';
import { databaseFindings } from './doctor/database-checks';
import { type DoctorFinding, needsUser } from './doctor/doctor-finding';
import { linkFindings } from './doctor/link-findings';
import { type StoreSize, storeSizes } from './doctor/store-sizes';
import { duplicateUnitFindings } from './doctor/unit-checks';
import { workspaceFindings } from './doctor/workspace-checks';
import { type RecallFn, type SearchHit, type SearchRequest, searchMemory } from './memory-search';
import type { RecallContext } from './recall/engine-pool';
import type { AddUnitInput } from './units/unit-input';
import type { UnitPatch } from './units/unit-patch';
import { createUnitLister, getMemory } from './units/unit-queries';
import type { MemoryRecord } from './units/unit-results';
import { createUnitStore, type ListUnitsFilter } from './units/unit-store';
import { watchWorkspace } from './units/workspace-watch';
import { createWorkspaceWriter } from './workspace-writer';

export interface HeadView {
  /** The managed region of MEMORY.md (between the head markers), or '' when absent. */
  head: string;
  /** The whole MEMORY.md. */
  content: string;
  exists: boolean;
}

export interface DoctorReport {
  /** False when an issue or a finding needs the user. */
  ok: boolean;
  /** Damaged regions of workspace files, read as RAW so nothing is lost. */
  issues: DocumentIssue[];
  /** Workspace sanity, database integrity and settings (see docs/CLI.md, `cairn doctor`). */
  findings: DoctorFinding[];
  /** Bytes on disk of each store under `.cairn/` (memory, lineage, heads, state, index). */
  stores: StoreSize[];
  files: number;
  units: number;
}

function extractHead(content: string): string {
  const start = content.indexOf(HEAD_START_MARKER);
  const end = content.indexOf(HEAD_END_MARKER);
  if (start === -1 || end < start) return '';
  return content.slice(start + HEAD_START_MARKER.length, end).trim();
}

/** The unit, search and head calls of a project, bound to its settings and backend. */
/** What `reindex` reports; the counts are those the backend's rebuild gives. */
export interface ReindexStats {
  backend: string;
  ms: number;
  filesScanned?: number;
  chunksWritten?: number;
  [detail: string]: unknown;
}

export function createMemoryApi(
  rootDir: string,
  settings: CairnSettings,
  backend: MemoryBackend,
  recall: RecallFn,
  now?: () => Date,
) {
  const writer = createWorkspaceWriter(rootDir, backend);
  const store = createUnitStore({ rootDir, settings, writer, ...(now ? { now } : {}) });
  const listUnits = createUnitLister();
  // The search index of this process refreshes the files that changed, not a stat of each.
  const indexWatch = watchWorkspace(rootDir);
  writer.onWrite((path) => indexWatch.note(path));
  followWorkspaceChanges(rootDir, indexWatch);
  return {
    /** The one writer of `.cairn/memory/` files; it refuses every write when the backend is read-only. */
    writer,
    add: (input: AddUnitInput) => store.add(input),
    replace: (memoryId: string, text: string) => store.replace(memoryId, text),
    /** `at` (`<file>:<line>`) names one copy of an id that is in several places. */
    remove: (memoryId: string, at?: string) => store.remove(memoryId, at),
    /** Approves or deprecates a unit (or sends it back to draft), keeping its id. */
    setReview: (memoryId: string, review: ReviewState) => store.setReview(memoryId, review),
    /** Applies a reviewed patch on units when every content-hash precondition holds (else `conflict`). */
    patchUnits: (patch: UnitPatch) => store.patch(patch),
    /** The workspace files, parsed (units, RAW paragraphs, issues), as the unit store last scanned them. */
    documents: () => store.scan(),
    get: (memoryId: string): Promise<MemoryRecord> => getMemory(rootDir, store.scan, memoryId),
    list: async (filter?: ListUnitsFilter): Promise<MemoryRecord[]> =>
      listUnits(await store.scan(), filter),
    /** The workspace's units and notes in seed 000's search shape, through `recall`. */
    search: (request: SearchRequest, context?: RecallContext): Promise<SearchHit[]> =>
      searchMemory(settings, recall, request, context),
    /** Seed 001 recall over every pool the query is eligible for (see ResolvedProject.recall). */
    recall: (query: MemoryQuery, context?: RecallContext) => recall(query, context),
    async readHead(): Promise<HeadView> {
      const { content, exists } = await backend.read(rootDir);
      return { head: extractHead(content), content, exists };
    },
    /** Rebuilds the local search index from the markdown (deleting it loses nothing). */
    /**
     * Rebuilds the index of the configured backend from the markdown: its
     * own `rebuild` when it has one (LanceDB, Qdrant, Mem0, qmd), else the
     * embedded SQLite index. `onProgress` hears each phase.
     */
    async reindex(onProgress: (message: string) => void = () => undefined): Promise<ReindexStats> {
      const started = monotonicMs();
      if (backend.rebuild && backend.type !== 'file' && backend.type !== 'readonly') {
        onProgress(`rebuilding the ${backend.type} index from .cairn/memory/`);
        // UNSUPPORTED: a backend loaded on first use turned out to be the file fallback.
        const stats = await backend.rebuild(rootDir).catch((error: unknown) => {
          if (CairnError.isInstance(error) && error.code === 'UNSUPPORTED') return undefined;
          throw error;
        });
        if (stats) {
          onProgress(`${backend.type} index rebuilt`);
          return { ...stats, backend: backend.type, ms: monotonicMs() - started };
        }
      }
      onProgress('rebuilding the search index under .cairn/index/ from .cairn/memory/');
      const index = openSearchIndex(rootDir);
      try {
        const stats = await index.rebuild();
        onProgress(`indexed ${stats.filesScanned} files, ${stats.chunksWritten} chunks`);
        return { backend: 'file', ...stats };
      } finally {
        index.close();
      }
    },
    /**
     * Checks the workspace and databases; `extra` are findings the caller
     * made (settings). Links under `.cairn/` come first: a check that
     * reaches one is refused, and counts what it could read without it.
     */
    async doctor(extra: DoctorFinding[] = []): Promise<DoctorReport> {
      const links = linkFindings(rootDir);
      const refusedWhenLinked =
        <T>(fallback: T) =>
        (error: unknown) => {
          if (links.length > 0 && isUnsafePathError(error)) return fallback;
          throw error;
        };
      const documents = await store.scan().catch(refusedWhenLinked([]));
      const issues = documents.flatMap((document) => document.issues);
      const units = documents.reduce((sum, document) => sum + document.units.length, 0);
      const workspace = await workspaceFindings(rootDir, settings.limits.headTokens).catch(
        refusedWhenLinked([]),
      );
      const findings = [
        ...links,
        ...workspace,
        ...duplicateUnitFindings(documents),
        ...databaseFindings(rootDir),
        ...extra,
      ];
      const ok = issues.length === 0 && !needsUser(findings);
      const stores = await storeSizes(rootDir);
      return { ok, issues, findings, stores, files: documents.length, units };
    },
  };
}

export type MemoryApi = ReturnType<typeof createMemoryApi>;

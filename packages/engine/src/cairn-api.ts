import type {
  CairnSettings,
  DocumentIssue,
  LifecycleApi,
  MemoryAdapterStatus,
  MemoryBackend,
  MemoryQuery,
  MemoryReadResult,
  MemoryResult,
  MemoryWriteResult,
  ParsedDocument,
  ResolvedSettings,
  RetrievalAdapterRegistration,
  ReviewState,
  WorkspaceFileInfo,
} from '@cairn/core';
import type { DoctorFinding, StoreSize } from './doctor';
import type { SharedFixesSync } from './history';
import type { ExpandOptions, LineageAgent, NodeExpansion } from './lineage';
import type { ContextPack } from './packs';
import type { RecallContext, SearchHit, SearchRequest } from './recall';
import type { WorkspaceWriter } from './store';
import type {
  AddUnitInput,
  AddUnitResult,
  ListUnitsFilter,
  MemoryRecord,
  RemoveUnitResult,
  ReplaceUnitResult,
  ReviewUnitResult,
  UnitPatch,
  UnitPatchResult,
} from './units';
import type {
  LifecycleFailure,
  PendingWrite,
  ProfilePackPreview,
  ThreadHeadState,
} from './working';

/*
 * The engine's API, stated in one place: what `openCairn` hands a host (the
 * CLI, the MCP server, the dashboard, the in-process harness plugins, the
 * bench). `Cairn` is its memory part (Tier 1: units, search, the head of
 * MEMORY.md, doctor) and its working part (Tier 2 and 3: lifecycle events,
 * thread heads, the lineage), plus what a host needs to open and close it.
 */

export type { LifecycleApi, ProfilePackPreview };

/** The head region of MEMORY.md, and the file around it. */
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

/** What `reindex` reports; the counts are those the backend's rebuild gives. */
export interface ReindexStats {
  backend: string;
  ms: number;
  filesScanned?: number;
  chunksWritten?: number;
  [detail: string]: unknown;
}

export interface InitResult {
  rootDir: string;
  /** Project-relative paths created by this call. */
  created: string[];
}

export interface CairnStatus {
  rootDir: string;
  workspace: string;
  initialized: boolean;
  backend: {
    requested: string;
    resolved: string;
    name: string;
    capabilities: MemoryBackend['capabilities'];
  };
  retrievalAdapter: {
    requested: string;
    resolved: string;
    capabilities: RetrievalAdapterRegistration['capabilities'];
    /** The adapter's own status (`ok`, its index and pools), or its fallback and why. */
    status?: MemoryAdapterStatus;
  };
  settings: ResolvedSettings;
  files: WorkspaceFileInfo[];
  warnings: string[];
}

/**
 * Long-term memory (Tier 1): the units in `.cairn/memory/`, their search,
 * and the head of MEMORY.md. The markdown is the source of truth; every
 * write goes through one writer so the indexes and watches hear of it.
 */
export interface MemoryApi {
  /** The one writer of `.cairn/memory/` files; it refuses every write when the backend is read-only. */
  readonly writer: WorkspaceWriter;
  /** Adds a unit (deduplicated against the workspace); bad input is a typed result, not a throw. */
  add(input: AddUnitInput): Promise<AddUnitResult>;
  /** Replaces a unit's text, keeping its id, file and review state. */
  replace(memoryId: string, text: string): Promise<ReplaceUnitResult>;
  /** Removes a unit; `at` (`<file>:<line>`) names one copy of an id that is in several places. */
  remove(memoryId: string, at?: string): Promise<RemoveUnitResult>;
  /** Approves or deprecates a unit (or sends it back to draft), keeping its id. */
  setReview(memoryId: string, review: ReviewState): Promise<ReviewUnitResult>;
  /** Applies a reviewed patch on units when every content-hash precondition holds (else `conflict`). */
  patchUnits(patch: UnitPatch): Promise<UnitPatchResult>;
  /** The workspace files, parsed (units, RAW paragraphs, issues), as the unit store last scanned them. */
  documents(): Promise<ParsedDocument[]>;
  /** One unit or RAW paragraph by id (NOT_FOUND otherwise). */
  get(memoryId: string): Promise<MemoryRecord>;
  /** The units, filtered; what `cairn list` and memory_list show. */
  list(filter?: ListUnitsFilter): Promise<MemoryRecord[]>;
  /** The workspace's units and notes in seed 000's search shape, through the project's recall. */
  search(request: SearchRequest, context?: RecallContext): Promise<SearchHit[]>;
  /** Seed 001 recall over every pool the query is eligible for (the project's recall). */
  recall(query: MemoryQuery, context?: RecallContext): Promise<MemoryResult[]>;
  /** The head region of MEMORY.md, as the backend reads it. */
  readHead(): Promise<HeadView>;
  /**
   * Rebuilds the index of the configured backend from the markdown: its
   * own `rebuild` when it has one (LanceDB, Qdrant, Mem0, qmd), else the
   * embedded SQLite index (deleting an index loses nothing). `onProgress`
   * hears each phase.
   */
  reindex(onProgress?: (message: string) => void): Promise<ReindexStats>;
  /**
   * Checks the workspace, databases and settings. Links under `.cairn/`
   * come first: a check that reaches one is refused, and counts what it
   * could read without it.
   */
  doctor(): Promise<DoctorReport>;
}

/** Lifecycle failures that were swallowed (fail-open), and head writes still deferred. */
export interface WorkingHealth {
  /** What each failure left undone and how to redo it (docs/CLI.md, `cairn doctor`). */
  failures: (LifecycleFailure & { fix: string })[];
  pending: PendingWrite[];
  /** Why heads.db could not be read (doctor reports the database itself). */
  headsError?: string;
}

/**
 * Working memory (seed 002): the lifecycle events harnesses deliver,
 * drill-down into Tier 3, and the thread heads of Tier 2. Its stores open
 * on first use, so a command that needs none of this never loads SQLite,
 * and reading never creates a database in a project that has none.
 */
export interface WorkingApi {
  /** The events a harness delivers (core's contract); each fails open. */
  readonly lifecycle: LifecycleApi;
  /** What a profile's hook would inject now, byte for byte (`cairn pack --profile`). */
  previewPack(request: ProfilePackPreview): Promise<ContextPack>;
  /**
   * Drill-down: the node, its lineage, siblings, thread, linked units and
   * transcript, secrets redacted (the lineage keeps them). Another agent's
   * node is NOT_FOUND.
   */
  expand(nodeId: string, agentId: string, options?: ExpandOptions): NodeExpansion;
  /** The agents the lineage holds history of (none, and no database made, before any). */
  lineageAgents(): LineageAgent[];
  /** Thread heads, optionally of one agent, most recently updated first. */
  threads(agentId?: string): ThreadHeadState[];
  /** One thread head and its markdown; NOT_FOUND when there is none. */
  threadHead(agentId: string, threadKey: string): { state: ThreadHeadState; markdown: string };
  /**
   * This clone's personal head as the last session end rendered it
   * (docs/TEAMS.md); undefined before one. MEMORY.md's region holds the
   * team head only.
   */
  localHead(): string | undefined;
  /**
   * Imports the fix patterns the other clones share in
   * `.cairn/memory/fixes/`, and with `write` writes this clone's own.
   */
  syncSharedFixes(options?: { write?: boolean }): Promise<SharedFixesSync>;
  /** Lifecycle failures that were swallowed (fail-open) and writes still deferred. */
  workingHealth(): WorkingHealth;
  /** Marks the logged lifecycle failures as seen (`cairn doctor --clear`); returns how many. */
  clearLifecycleFailures(): number;
  /**
   * Closes the working stores (lineage, heads, history) and the readers and
   * recall connections this project kept; they open again on next use. A
   * command calls it when done so each SQLite WAL is folded in.
   */
  closeWorking(): void;
}

/** The memory of one project, with its settings resolved. */
export interface Cairn extends MemoryApi, WorkingApi {
  readonly rootDir: string;
  readonly settings: CairnSettings;
  readonly resolved: ResolvedSettings;
  /** This project's own backend instance, its optional package already loaded. */
  readonly backend: MemoryBackend;
  /** Config findings and backend/adapter fallbacks the user should see. */
  readonly warnings: string[];
  /**
   * Bootstraps `.cairn/` (idempotent). With a read-only backend it creates
   * nothing, and refuses with READ_ONLY when MEMORY.md is missing.
   */
  init(): Promise<InitResult>;
  /** Where the project is, what resolved, and how the retrieval adapter is doing. */
  status(): Promise<CairnStatus>;
  /** The long-term file (MEMORY.md) through the resolved backend. */
  read(): Promise<MemoryReadResult>;
  /**
   * Replaces MEMORY.md, under the lock head renders take. Refuses empty
   * content (unless `allowEmpty`) and binary content with INVALID_INPUT.
   */
  write(content: string, options?: { allowEmpty?: boolean }): Promise<MemoryWriteResult>;
  /**
   * Closes everything this project opened: the working stores
   * (`closeWorking`), the workspace watches, and the backend's own
   * connections. The project is not used after this; a long-lived host
   * (the hook server, an in-process plugin) calls it when it lets a
   * project go.
   */
  close(): Promise<void>;
}

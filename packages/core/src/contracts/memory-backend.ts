/**
 * The MemoryBackend contract (seed 000 §3.1). A backend owns the layered
 * workspace of one project: it reads and writes the long-term file and may
 * offer bounded get/search over the workspace. Every path a backend receives
 * is the project root; it resolves workspace files itself.
 */

/** What a backend can do, declared as static data and read without connecting. */
export interface MemoryBackendCapabilities {
  /** `read` returns the long-term file. */
  readable: boolean;
  /** `write` replaces the long-term file; false means it throws READ_ONLY. */
  writable: boolean;
  /** A write is all-or-nothing: readers never see a torn file, even if the writer is killed. */
  supportsAtomicWrite: boolean;
  /** Concurrent writes are detected and refused with CONFLICT instead of last-writer-wins. */
  hasConflictResolution: boolean;
  /** Content survives the process (a fresh instance reads what an earlier one wrote). */
  persistent: boolean;
}

export interface MemoryReadResult {
  /** The long-term file's text; empty when the file does not exist yet. */
  content: string;
  /** Whether the file existed. A missing file reads as empty (seed 000 §4.2). */
  exists: boolean;
  /** Workspace-relative path of what was read, e.g. `MEMORY.md`. */
  path: string;
}

export interface MemoryWriteResult {
  /** Workspace-relative path written. */
  path: string;
  /** Bytes written (UTF-8). */
  bytes: number;
}

export interface MemoryGetOptions {
  /** Workspace-relative path: `MEMORY.md`, `DREAMS.md`, `YYYY-MM-DD.md`, `threads/<key>.md`, ... */
  path: string;
  /** First line to return, 1-based. Default 1. */
  startLine?: number;
  /** How many lines to return. Bounded by the backend's limit (default 200). */
  lineCount?: number;
}

export interface MemoryGetResult {
  path: string;
  content: string;
  startLine: number;
  /** Last line returned (inclusive); `startLine - 1` when nothing was returned. */
  endLine: number;
  totalLines: number;
  /** True when lines after `endLine` exist but were not returned. */
  truncated: boolean;
}

export interface MemorySearchOptions {
  /** Keywords or a natural-language question. */
  query: string;
  /** Maximum results. Default 10. */
  limit?: number;
  /** Maximum characters per snippet. Default 320. */
  snippetChars?: number;
  /** Optional narrowing; backends without metadata ignore what they cannot apply. */
  filters?: MemorySearchFilters;
}

export interface MemorySearchFilters {
  /** Only hits of these categories (units only). */
  category?: string[];
  kind?: MemoryKind[];
  /** Review states to keep; default approved and draft (deprecated left out). */
  review?: string[];
  /** ISO date or instant: units created at or after / before it. RAW hits have no date and are dropped when set. */
  since?: string;
  until?: string;
  /** Workspace-relative path or prefix, e.g. `2026-03-` or `threads/`. */
  path?: string;
  /** Keep deprecated units (same as listing `deprecated` in review). */
  includeDeprecated?: boolean;
}

/** Kind of content a search hit came from (seed 003): a managed unit or raw markdown. */
export type MemoryKind = 'UNIT' | 'RAW';

/** One bounded hit: a snippet and where it lives, never a whole document. */
export interface MemorySearchResult {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  /** Set when the hit is a managed unit. */
  memoryId?: string;
  kind?: MemoryKind;
  category?: string;
  /** A unit's review state (`approved`, `draft`, `deprecated`), when the index keeps it. */
  review?: string;
  createdAt?: string;
}

export interface MemoryBackend {
  /** Registry key, equal to the package folder name (`file`, `readonly`, ...). */
  readonly type: string;
  /** Human-readable name. */
  readonly name: string;
  readonly capabilities: MemoryBackendCapabilities;
  read(rootDir: string): Promise<MemoryReadResult>;
  write(rootDir: string, content: string): Promise<MemoryWriteResult>;
  get?(rootDir: string, options: MemoryGetOptions): Promise<MemoryGetResult>;
  search?(rootDir: string, options: MemorySearchOptions): Promise<MemorySearchResult[]>;
  exists?(rootDir: string): Promise<boolean>;
  /**
   * What the backend went through that the user should hear about, each once
   * (its index fell back to a scan, its engine was missing). Read any time.
   */
  readonly warnings?: readonly string[];
  /**
   * Brings the backend's own index (LanceDB, Qdrant, Mem0, qmd) up to date
   * with the markdown, incrementally. Searches do it themselves; hosts call
   * it to pay the cost up front. Resolves to what was done (counts).
   */
  refresh?(rootDir: string): Promise<MemoryIndexStats>;
  /** Drops the backend's own index and builds it again from the markdown (`cairn reindex`). */
  rebuild?(rootDir: string): Promise<MemoryIndexStats>;
  /** Releases open databases and clients; the backend may be used again afterwards. */
  close?(): Promise<void> | void;
}

/** Counts a refresh or rebuild reports (files scanned, chunks written, ...), backend-specific. */
export type MemoryIndexStats = object;

/** How settings name a backend and pass it options. */
export interface MemoryBackendConfig {
  type: string;
  options?: Record<string, unknown>;
}

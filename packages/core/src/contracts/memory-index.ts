import type { MemoryChunk } from '../units/chunker';
/**
 * The index contract: what each search engine (the file FTS5 index,
 * LanceDB, Qdrant, Mem0, qmd) implements once. Generic code builds both a
 * MemoryBackend (seed 000) and a MemoryRetrievalAdapter (seed 001) from any
 * index, with the same fallback, so an engine package holds only its index,
 * its options and its loader. An index is derived data: it is brought up to
 * date from markdown sources and may be deleted and rebuilt at any time.
 */
import type { MemoryIndexStats } from './memory-backend';
import type { MemoryRecordMeta } from './memory-record';
import type { MemoryTier } from './retrieval-adapter';

/** A file as a source lists it: a relative `/`-separated path and its stat. */
export interface SourceFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/** Where the markdown of one pool comes from: the workspace, or a registered folder. */
export interface PoolSource {
  /** `workspace`, or the absolute folder: a pool that points elsewhere is indexed again. */
  key: string;
  /** Only stat calls: a refresh with nothing changed does no more than this. */
  list(): Promise<SourceFile[]> | SourceFile[];
  /** The file's bytes, or undefined when it vanished or may not be read. */
  read(path: string): Promise<Buffer | undefined>;
  /**
   * True for a source of task-history records (run digests, fix patterns):
   * a file's first line may then be a record header (`encodeRecordHeader`)
   * whose metadata every chunk of the file carries. Any other source's
   * header is plain text: repository content cannot claim a trust class.
   */
  records?: boolean;
  /**
   * Cuts one file into chunks the source's own way (the project's
   * documents: by Markdown section); absent, the index's chunker does.
   */
  chunk?(text: string, path: string): Promise<MemoryChunk[]> | MemoryChunk[];
}

/** One pool as an index refreshes and searches it. */
export interface PoolTarget {
  id: string;
  tier: MemoryTier;
  /** Agents the pool answers to; absent means every agent. */
  agents?: string[];
  /** Absolute folder the hit paths are relative to. */
  base: string;
  source: PoolSource;
}

/**
 * Narrowing an index applies (or leaves to the generic code, see
 * `MemoryIndexCapabilities.filters`). Backend search filters and recall
 * metadata filters both become this shape.
 */
export interface MemoryIndexFilters {
  /** Per field, the values one of which must match: poolId, tier, path, kind, category, review, memoryId, record_kind, trust_class, or other hit metadata. */
  oneOf?: Record<string, string[]>;
  /** Leave deprecated units out. */
  excludeDeprecated?: boolean;
  /** Units created at or after this instant (ms); hits without a date are dropped when set. */
  sinceMs?: number;
  /** Units created before this instant (ms); hits without a date are dropped when set. */
  untilMs?: number;
  /** Only paths starting with this prefix. */
  pathPrefix?: string;
}

/** A filter an index may push down: a `oneOf` field, or one of the other filter kinds. */
export type MemoryIndexFilterName =
  | 'deprecated'
  | 'created'
  | 'pathPrefix'
  | 'poolId'
  | 'tier'
  | 'path'
  | 'kind'
  | 'category'
  | 'review'
  | 'memoryId';

export interface MemoryIndexQuery {
  /** The question as given. */
  text: string;
  /** Its keyword terms (index-kit's `queryTerms`). */
  terms: string[];
  /** The pools to search, already checked for eligibility and present on disk. */
  pools: PoolTarget[];
  /** The tiers recall asked for (absent for backend search). */
  tiers?: MemoryTier[];
  /** The caller, for indexes that store each pool's agents (absent for backend search). */
  agentId?: string;
  /** Only the filters the index declared it pushes down. */
  filters: MemoryIndexFilters;
  /** Most results wanted. */
  limit: number;
  /**
   * Whether the generic code checks more filters on the hits afterwards:
   * then the index returns more candidates than `limit` (index-kit's
   * `POST_FILTER_CANDIDATES`, or what suits the engine).
   */
  postFiltered: boolean;
}

/** One chunk found: where it sits, its unit fields, its text and score. */
export interface MemoryIndexHit {
  /** Stable id of the chunk in the index. */
  id: string;
  /** The pool id. */
  pool: string;
  path: string;
  startLine: number;
  endLine: number;
  /** `UNIT` or `RAW`. */
  kind: string;
  memoryId?: string | null;
  category?: string | null;
  review?: string | null;
  createdAt?: string | null;
  /** The task-history record the chunk belongs to (record kind, trust class, namespace, repo, run ref). */
  record?: MemoryRecordMeta | null;
  /** The chunk text; the generic code bounds it into a snippet. */
  text: string;
  /** Words to centre the snippet on, when not the query terms (qmd matches stemmed roots). */
  highlight?: string[];
  score: number;
  /** Cosine similarity of the vector match, when there was one. */
  similarity?: number;
  /** The keyword match's score, when there was one. */
  keywordScore?: number;
  /**
   * The query's own words (not expansions) found in the chunk's own text,
   * when the engine knows them (the file index does): a hit found only
   * through its neighbours or a synonym has none.
   */
  matchedTerms?: string[];
  /** Engine-specific fields added to recall metadata and to search results (point ids, search mode, ...). */
  metadata?: Record<string, unknown>;
}

export interface MemoryIndexRefreshOptions {
  /** Drop what the index holds for these pools and index every file again. */
  rebuild?: boolean;
  /** Reconcile first: pools not listed are dropped, listed pools whose tier or agents changed are rewritten. */
  keepOnly?: PoolTarget[];
}

/** What `describe()` reports: a short phrase for status lines and structured details. */
export interface MemoryIndexDescription {
  /** e.g. `LanceDB hybrid search`; status reads `<summary> over N pool(s)`. */
  summary: string;
  details: Record<string, unknown>;
}

export interface MemoryIndex<Stats extends MemoryIndexStats = MemoryIndexStats> {
  /**
   * Told after the backend wrote the workspace: an index that mirrors on
   * write updates now (Mem0) or schedules it (qmd). Optional; pull-based
   * indexes catch up on their next refresh.
   */
  changed?(targets: PoolTarget[]): Promise<void>;
  /** Brings the index up to date with the pools' markdown (incremental unless `rebuild`); resolves to counts. */
  refresh(targets: PoolTarget[], options?: MemoryIndexRefreshOptions): Promise<Stats>;
  /**
   * Best hits first: at most `query.limit`, or more candidates when
   * `query.postFiltered`. Answers from the markdown as it is now: the index
   * brings the pools it searches up to date first (incrementally).
   */
  search(query: MemoryIndexQuery): Promise<MemoryIndexHit[]>;
  /** Its state (rows, index kinds, location); throws when the engine is unavailable. */
  describe(): Promise<MemoryIndexDescription>;
  /** Releases databases and clients; the index may be used again afterwards. */
  close(): Promise<void>;
}

/** What an index can do, declared as data and read without connecting. */
export interface MemoryIndexCapabilities {
  /** Vector similarity. */
  semantic: boolean;
  /** Keyword / full-text matching. */
  keyword: boolean;
  /**
   * Filters the index applies itself (`MemoryIndexFilterName`s, or other
   * metadata keys it stores; `*` for every filter); the generic code checks
   * the others on each hit.
   */
  filters: readonly (MemoryIndexFilterName | (string & {}))[];
  /**
   * Indexes a pool whose markdown comes from a source of its own (not a
   * folder) and stores the record metadata of a records source
   * (`PoolSource.records`: record kind, trust class, namespace, repo, run
   * ref). Absent: such pools are indexed elsewhere (the engine's file index).
   */
  records?: boolean;
}

/** What an index is created with: one project's. */
export interface MemoryIndexContext<Options> {
  /** The project root (absolute). */
  rootDir: string;
  /** The host's folder for derived data, when it chose one (seed 001 `init`). */
  dataDir?: string;
  /** The parsed options. */
  options: Options;
  /** Records a warning once (fallbacks, rebuilds). */
  warn: (message: string) => void;
}

/** Options every index registration's parser keeps for the generic code. */
export interface MemoryIndexCommonOptions {
  /** Most lines one `get` returns. Default 200. */
  getMaxLines?: number;
  /** Told once about each distinct warning. */
  onWarning?: (message: string) => void;
}

/** The common options as a backend's parser returns them: `getMaxLines` defaulted. */
export interface ResolvedIndexCommonOptions extends MemoryIndexCommonOptions {
  getMaxLines: number;
  onWarning: ((message: string) => void) | undefined;
}

/**
 * How an engine package registers its index; the engine builds the
 * backend and the retrieval adapter from it. The registry key is `type`.
 */
export interface MemoryIndexRegistration<
  Options extends MemoryIndexCommonOptions = MemoryIndexCommonOptions,
  Stats extends MemoryIndexStats = MemoryIndexStats,
> {
  /** Registry key, equal to the package folder name (`lancedb`, ...). */
  type: string;
  /** The backend's human-readable name. */
  name: string;
  /** The engine as warnings name it: `LanceDB`, `Qdrant`. */
  engine: string;
  capabilities: MemoryIndexCapabilities;
  /** Parses raw options (INVALID_INPUT on a bad one, before anything is created). */
  parseOptions(input: unknown): Options;
  /** When options change what the index can do (Qdrant without sparse vectors has no keyword arm). */
  capabilitiesFor?(options: Options): MemoryIndexCapabilities;
  /** False for what the caller must fix (bad input): thrown, not answered by the fallback. */
  canFallBack?(error: unknown): boolean;
  create(context: MemoryIndexContext<Options>): MemoryIndex<Stats>;
}

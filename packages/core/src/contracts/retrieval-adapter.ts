/**
 * The MemoryRetrievalAdapter contract (seed 001). An adapter indexes pools
 * of markdown and recalls snippets for a query. Adapters are optional: when
 * one is missing or fails, Cairn falls back to the builtin `file` adapter.
 */

export type MemoryTier = 'hot' | 'warm' | 'cold';

/** What recall modes an adapter supports, declared as static data. */
export interface RetrievalAdapterCapabilities {
  /** Vector similarity. */
  semantic: boolean;
  /** Keyword / full-text matching. */
  keyword: boolean;
  /** Knowledge-graph traversal. */
  graph?: boolean;
}

/** A named slice of memory mapped to a folder. */
export interface MemoryPoolDefinition {
  /** Stable pool id. */
  id: string;
  tier: MemoryTier;
  /** Absolute path, or relative to the project root. */
  path: string;
  /** Roles allowed to recall from this pool; absent means every role. */
  roles?: string[];
  /** Agents allowed to recall from this pool; absent means every agent. */
  agents?: string[];
}

export interface MemoryQuery {
  /** The calling agent; pools that list agents only answer to those. */
  agentId: string;
  /** The caller's role; pools that list roles only answer to those. */
  role?: string;
  /** Natural language or keywords. */
  query: string;
  /** Default 10. */
  limit?: number;
  /** Only these pools. */
  poolIds?: string[];
  /** Default hot + warm. */
  tiers?: MemoryTier[];
  /** Metadata filters: a value or any of a list of values must match. */
  filters?: Record<string, string | string[]>;
}

export interface MemoryResult {
  /** Adapter-specific id of the hit. */
  id: string;
  /** File path or logical id. */
  uri: string;
  score?: number;
  /** Bounded excerpt for inline context. */
  snippet?: string;
  content?: string;
  metadata?: Record<string, unknown>;
}

export interface MemoryAdapterStatus {
  ok: boolean;
  message?: string;
  details?: Record<string, unknown>;
}

export interface MemoryRetrievalAdapter {
  /** Stable adapter id (`file`, `lancedb`, ...). */
  readonly id: string;
  readonly capabilities: RetrievalAdapterCapabilities;
  /** Called once before use: open databases, load config. */
  init?(opts: { dataDir: string; vaultRoot?: string }): Promise<void>;
  /** The authoritative set of pools; the adapter reconciles its index to it. */
  registerPools(pools: MemoryPoolDefinition[]): Promise<void>;
  /** Refresh these paths now; a no-op for pull-based indexers. */
  indexPaths(paths: string[]): Promise<void>;
  recall(query: MemoryQuery): Promise<MemoryResult[]>;
  status?(): Promise<MemoryAdapterStatus>;
}

export const DEFAULT_RECALL_LIMIT = 10;
export const DEFAULT_RECALL_TIERS: readonly MemoryTier[] = ['hot', 'warm'];

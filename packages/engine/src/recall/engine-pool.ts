import type { MemoryPoolDefinition, MemoryResult, NormalizedMemoryQuery } from '@cairn/core';
import type { LineageStore, TranscriptHit } from '../lineage';

/** One transcript lookup: an agent's entries for a query, in a thread, without one session. */
export interface TranscriptLookup {
  agentId: string;
  query: string;
  limit: number;
  threadKey?: string;
  /** The asking session: its own entries are what the agent sees already. */
  excludeSessionKey?: string;
}

/** How one caller's recall reaches the lineage (the lifecycle passes what it has open). */
export interface RecallContext {
  /** The lineage store the caller has open; default: the project's, opened on first use. */
  lineage?: () => LineageStore;
  /** How transcripts are looked up (the lifecycle's ranks by meaning); default: full text. */
  transcripts?: (lookup: TranscriptLookup) => Promise<TranscriptHit[]>;
}

/** What an engine pool reads with: the lineage when the project has one. */
export interface PoolContext {
  /** Undefined when the project has no lineage yet (nothing is created to answer a recall). */
  lineage(): LineageStore | undefined;
  transcripts?: RecallContext['transcripts'];
}

/**
 * A pool Cairn answers itself, next to the index adapter: its items are
 * not markdown in a folder (lineage nodes, transcripts) or go through an
 * index of their own (the project's documents). Each honours `limit` and
 * its own filters; the composite checks eligibility and merges.
 */
export interface EnginePool {
  definition: MemoryPoolDefinition;
  recall(query: NormalizedMemoryQuery, context: PoolContext): Promise<MemoryResult[]>;
  close?(): Promise<void>;
  /** The pool's state for `status()`. */
  describe?(): Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * True once the index adapter holds this pool itself (the history pool
   * on an index that stores records): a query naming it goes to the adapter.
   */
  carriedByIndex?(): boolean;
}

export const SUMMARIES_POOL_ID = 'summaries';
export const TRANSCRIPTS_POOL_ID = 'transcripts';
/** Filter keys the lineage pools read themselves (not metadata to match). */
export const LINEAGE_FILTER_KEYS: readonly string[] = ['threadKey', 'excludeSessionKey'];

/**
 * The lineage side of recall, given by the full engine (`openCairn`): a
 * search-only process (`cairn search`) never loads the lineage modules.
 */
export interface LineageAccess {
  pools: EnginePool[];
  /** The project's lineage store, opened on first use; undefined while the project has none. */
  open(): LineageStore | undefined;
  close(): void;
}

import type {
  CairnSettings,
  Embedder,
  LifecycleResult,
  MemoryQuery,
  MemoryResult,
} from '@cairn/core';
import { type LineageStore, openLineageStore } from '../lineage';
import type { PackProfileName } from '../packs';
import type { RecallContext, SearchHit, SearchRequest } from '../recall';
import type { WorkspaceWriter } from '../store';
import type { AddUnitInput, AddUnitResult, ListUnitsFilter, MemoryRecord } from '../units';

/**
 * What the lifecycle asks of the project's long-term memory (Tier 1): the
 * writer for heads and shared fixes, the units and the head of MEMORY.md
 * for the heads, search and recall for packs, and adding draft units for
 * promoted fixes. The declared memory API (`MemoryApi`) is one; the
 * lifecycle states only what it uses, so it never imports the API above it.
 */
export interface LifecycleMemory {
  readonly writer: WorkspaceWriter;
  add(input: AddUnitInput): Promise<AddUnitResult>;
  list(filter?: ListUnitsFilter): Promise<MemoryRecord[]>;
  readHead(): Promise<{ content: string }>;
  search(request: SearchRequest, context?: RecallContext): Promise<SearchHit[]>;
  recall(query: MemoryQuery, context?: RecallContext): Promise<MemoryResult[]>;
}

/** What `cairn pack --profile` asks for: the pack a hook would inject now, for a session. */
export interface ProfilePackPreview {
  profile: PackProfileName;
  agentId: string;
  sessionKey: string;
  /** Default: the session's thread, else the thread its first event would start. */
  threadKey?: string;
  /** The prompt (prompt-submit) or the failure's text (post-tool). */
  input?: string;
}

/** What the lifecycle and the parts behind it work with: one project, opened. */
export interface LifecycleContext {
  rootDir: string;
  settings: CairnSettings;
  memory: LifecycleMemory;
  now: () => Date;
  /** The configured embedder, if any (transcript recall ranks by meaning with it). */
  embedder?: () => Embedder | undefined;
  /** Where the summarizer reads its API key (`apiKeyEnv`); defaults to process.env. */
  env?: Record<string, string | undefined>;
}

export type { LifecycleResult };

export const EMPTY_RESULT: LifecycleResult = { inject: '' };

/** The lineage store, opened on first use (a prompt that recalls from units never opens it). */
export function lazyLineage(ctx: LifecycleContext) {
  let lineage: LineageStore | undefined;
  return {
    store: (): LineageStore => (lineage ??= openLineageStore(ctx.rootDir, { now: ctx.now })),
    /** Whether this event has opened it already (the pack's history plane reads only then). */
    isOpen: (): boolean => lineage !== undefined,
    close: (): void => lineage?.close(),
  };
}

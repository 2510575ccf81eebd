import {
  type CairnSettings,
  type Embedder,
  FINAL_ANSWER_CHARS,
  type LifecycleResult,
  type MemoryQuery,
  type MemoryResult,
} from '@cairn/core';
import { NO_FINAL_ANSWER } from '../history';
import { type AppendedEntry, type LineageStore, openLineageStore } from '../lineage';
import type { PackProfileName } from '../packs';
import type { RecallContext, SearchHit, SearchRequest } from '../recall';
import type { WorkspaceWriter } from '../store';
import type { AddUnitInput, AddUnitResult, ListUnitsFilter, MemoryRecord } from '../units';
import type { SessionRecord } from './head-store';

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

export type TranscriptRole = 'user' | 'tool' | 'system' | 'assistant';

/** Tier 3 capture: every event's text, whole, in the session's transcript. */
export function createTranscriptCapture(ctx: LifecycleContext, store: () => LineageStore) {
  return (
    session: SessionRecord,
    role: TranscriptRole,
    text: string,
    toolName?: string,
  ): AppendedEntry =>
    store().appendTranscriptEntry({
      agentId: session.agentId,
      sessionKey: session.sessionKey,
      role,
      text: text || '(empty)',
      threadKey: session.threadKey,
      ...(session.harness ? { harness: session.harness } : {}),
      ...(session.cwd ? { cwd: session.cwd } : {}),
      ...(toolName ? { toolName } : {}),
      at: ctx.now().toISOString(),
    });
}

/**
 * At session end, the agent's final answer as the harness handed it over
 * (docs/HISTORY.md#run-digests): an `assistant` entry, or the
 * NO_FINAL_ANSWER note when the harness found none. A harness that ends a
 * session more than once (OpenCode, OpenClaw) hands the same answer again:
 * it is written once.
 */
export function captureFinalAnswer(
  store: LineageStore,
  capture: ReturnType<typeof createTranscriptCapture>,
  session: SessionRecord,
  finalAnswer: string | null | undefined,
): void {
  if (finalAnswer === undefined) return;
  const text = finalAnswer?.trim().slice(0, FINAL_ANSWER_CHARS) ?? '';
  const [role, entry] = text
    ? (['assistant', text] as const)
    : (['system', NO_FINAL_ANSWER] as const);
  const { agentId, sessionKey } = session;
  const total = store.getTranscript(agentId, sessionKey, { limit: 1 })?.totalEntries ?? 0;
  if (total > 0) {
    const last = store.getTranscript(agentId, sessionKey, { fromSeq: total, limit: 1 })?.entries[0];
    if (last?.role === role && last.text === entry) return;
  }
  capture(session, role, entry);
}

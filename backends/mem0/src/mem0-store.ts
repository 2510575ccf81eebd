import type { Mem0Mode, Mem0Scope } from './mem0-options';

/** Metadata values Cairn stores on a Mem0 entry (flat, so every Mem0 vector store can filter on them). */
export type Mem0Metadata = Record<string, string | number>;

/** A condition on one metadata key: equal to, one of, or not equal to. */
export type Mem0Condition = string | { in: string[] } | { ne: string };

export interface Mem0Hit {
  /** Mem0's id of the entry. */
  id: string;
  text: string;
  score: number;
  metadata: Record<string, unknown>;
}

export interface Mem0SearchRequest {
  query: string;
  topK: number;
  /** Minimum similarity. */
  threshold: number;
  /** Metadata conditions, all of which must hold (the scope is added by the store). */
  where: Record<string, Mem0Condition>;
}

/**
 * The little of Mem0 that Cairn uses, over either mode: the OSS `Memory`
 * in-process or the platform's `MemoryClient`. Every call is narrowed to the
 * store's scope (userId / agentId / runId).
 */
export interface Mem0Store {
  readonly mode: Mem0Mode;
  readonly scope: Mem0Scope;
  /** Where entries live (database path, collection or host): part of the mirror's identity. */
  readonly location: string;
  /** Stores one text; returns the ids Mem0 gave it (none when the platform queues the add). */
  add(text: string, metadata: Mem0Metadata): Promise<string[]>;
  /** Deletes one entry; an entry that is already gone is not an error. */
  delete(id: string): Promise<void>;
  search(request: Mem0SearchRequest): Promise<Mem0Hit[]>;
  /** Entries matching `where`, at most `limit` (used to clear a namespace on rebuild). */
  list(where: Record<string, Mem0Condition>, limit: number): Promise<Mem0Hit[]>;
  close(): Promise<void>;
}

/** Mem0's snake_case entity filters for a scope. */
export function scopeFilters(scope: Mem0Scope): Record<string, string> {
  return {
    ...(scope.userId ? { user_id: scope.userId } : {}),
    ...(scope.agentId ? { agent_id: scope.agentId } : {}),
    ...(scope.runId ? { run_id: scope.runId } : {}),
  };
}

/** Evaluates conditions locally: for stores whose server-side filter syntax differs (the platform). */
export function matchesConditions(
  metadata: Record<string, unknown>,
  where: Record<string, Mem0Condition>,
): boolean {
  return Object.entries(where).every(([key, condition]) => {
    const actual = metadata[key];
    if (typeof condition === 'string') return actual === condition;
    if ('in' in condition) return typeof actual === 'string' && condition.in.includes(actual);
    return actual !== condition.ne;
  });
}

/** Mem0's item shape (both modes) as a hit. */
export function toHit(item: {
  id: string;
  memory?: string | undefined;
  score?: number | undefined;
  metadata?: Record<string, unknown> | null | undefined;
}): Mem0Hit {
  return {
    id: String(item.id),
    text: item.memory ?? '',
    score: item.score ?? 0,
    metadata: item.metadata ?? {},
  };
}

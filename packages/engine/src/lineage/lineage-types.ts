/**
 * Plain types of Tier 3, the lossless lineage store (seed 002). Every row is
 * keyed by `agentId`: a session key is only unique within one agent.
 */

export const TRANSCRIPT_ROLES = ['user', 'assistant', 'tool', 'system'] as const;
export type TranscriptRole = (typeof TRANSCRIPT_ROLES)[number];

export const TEMPORAL_NODE_KINDS = [
  'session_summary',
  'compaction',
  'condensed',
  'run_digest',
] as const;
export type TemporalNodeKind = (typeof TEMPORAL_NODE_KINDS)[number];

/** The kinds condensation counts and consumes; run digests stay outside the DAG's rollup. */
export const CONDENSABLE_KINDS = [
  'session_summary',
  'compaction',
  'condensed',
] as const satisfies readonly TemporalNodeKind[];

export interface TranscriptEntry {
  /** 1-based, contiguous within one transcript. */
  seq: number;
  role: TranscriptRole;
  text: string;
  /** Set for tool entries when the harness names the tool. */
  toolName: string | null;
  /** ISO instant (UTC). */
  at: string;
}

export interface Transcript {
  transcriptId: number;
  agentId: string;
  sessionKey: string;
  harness: string | null;
  cwd: string | null;
  /** The thread the session was started in, when the harness knew it. */
  threadKey: string | null;
  startedAt: string;
  /** Entries of the requested window, oldest first. */
  entries: TranscriptEntry[];
  /** Entries in the whole transcript, so callers can page. */
  totalEntries: number;
}

export interface AppendedEntry {
  transcriptId: number;
  seq: number;
}

export interface TranscriptHit {
  transcriptId: number;
  sessionKey: string;
  seq: number;
  role: TranscriptRole;
  toolName: string | null;
  at: string;
  /** A short window of the entry around the matched terms; page the entry with getTranscript. */
  snippet: string;
  /** Rank: the negated summed rarity of the query terms the entry holds; lower is better. */
  score: number;
}

/** A ranked transcript hit before its snippet is built. */
export type RankedTranscriptHit = Omit<TranscriptHit, 'snippet'>;
/**
 * Picks, among ranked hits (best first), those whose entries are read for
 * snippets and returned: some of the very objects it is given, in order.
 */
export type KeepTranscriptHits = (hits: RankedTranscriptHit[]) => RankedTranscriptHit[];

export interface TemporalNode {
  /** `node:<uuid>`. */
  id: string;
  agentId: string;
  kind: TemporalNodeKind;
  threadKey: string;
  /** Null for condensed nodes, which may span sessions. */
  sessionKey: string | null;
  /** 0 for leaves; a condensed node is one deeper than its deepest child. */
  depth: number;
  startAt: string;
  endAt: string;
  /** Who wrote the text: 'harness', 'extractive', 'openai:<model>', ... */
  source: string;
  text: string;
  createdAt: string;
}

export interface SummaryRetry {
  agentId: string;
  sessionKey: string;
  attempts: number;
  lastError: string;
  nextAttemptAt: string;
  firstFailedAt: string;
  updatedAt: string;
}

/** An instant: a Date or an ISO 8601 string with an offset (`Z` or `+02:00`). */
export type Instant = Date | string;

export interface AppendTranscriptEntryInput {
  agentId: string;
  sessionKey: string;
  role: TranscriptRole;
  text: string;
  /** Harness id (`claude-code`, `codex`, ...); kept from the first entry that has one. */
  harness?: string;
  cwd?: string;
  /** The thread the session runs in, when known; lets thread-scoped search find it early. */
  threadKey?: string;
  toolName?: string;
  /** Default: now. */
  at?: Instant;
}

export interface TranscriptReadOptions {
  /** First seq to return (1-based, inclusive). */
  fromSeq?: number;
  /** Default 500. */
  limit?: number;
  /** Only entries at or after this instant. */
  fromAt?: Instant;
  /** Only entries at or before this instant. */
  toAt?: Instant;
}

export interface TranscriptSearchOptions {
  /** Default 20. */
  limit?: number;
  threadKey?: string;
  /** Entries of this session are left out (the session asking, whose prompt is already recorded). */
  excludeSessionKey?: string;
}

export interface AddNodeInput {
  agentId: string;
  kind: TemporalNodeKind;
  threadKey: string;
  /** Required for session_summary and compaction; optional for run_digest; absent for condensed. */
  sessionKey?: string;
  /** Default: now for leaves, the union of the children for condensed nodes. */
  startAt?: Instant;
  endAt?: Instant;
  source: string;
  text: string;
  /** Condensed nodes only (and required there): the nodes it consumed. */
  childIds?: string[];
  /** `UNIT:<uuid>` ids of the memory units this node produced or rests on. */
  unitIds?: string[];
}

export interface ListNodesFilter {
  agentId: string;
  threadKey?: string;
  /** Only the nodes of this session (a run's summaries and digests). */
  sessionKey?: string;
  /** Only the newest node of each session (with `kinds`: of that kind), e.g. a run's latest digest. */
  newestPerSession?: boolean;
  kinds?: TemporalNodeKind[];
  /** true: only nodes with no parent; false: only consumed nodes. */
  roots?: boolean;
  /** Only nodes whose time range ends at or after this instant. */
  since?: Instant;
  limit?: number;
  /** By start time; default 'asc' (oldest first). */
  order?: 'asc' | 'desc';
}

export interface SummaryFailureInput {
  agentId: string;
  sessionKey: string;
  /** Why the summary failed, for the operator. */
  error: string;
  /** Default: now plus an exponential backoff (1 min doubling, at most 6 h). */
  nextAttemptAt?: Instant;
}

export interface CondenseRootsInput {
  agentId: string;
  threadKey: string;
  /** The roots to consume; every one must still be a root of this agent. */
  childIds: string[];
  summary: { text: string; source: string };
}

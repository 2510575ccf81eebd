import { join } from 'node:path';
import { CairnError, cairnStatePath } from '@cairn/core';
import { openDatabase } from './lineage-database';
import { lineageSchemaVersion, migrateLineageDatabase } from './lineage-migrations';
import type {
  AddNodeInput,
  AppendedEntry,
  AppendTranscriptEntryInput,
  CondenseRootsInput,
  Instant,
  KeepTranscriptHits,
  ListNodesFilter,
  SummaryFailureInput,
  SummaryRetry,
  TemporalNode,
  Transcript,
  TranscriptHit,
  TranscriptReadOptions,
  TranscriptSearchOptions,
} from './lineage-types';
import {
  addEdge,
  childrenOf,
  condenseRoots,
  linkedUnits,
  linkUnits,
  neighbourRoots,
  parentsOf,
} from './node-graph';
import { type LineageAgent, lineageAgents, resolveNodeId } from './node-ids';
import {
  addNode,
  countNodes,
  getNode,
  listNodes,
  type NodeHead,
  nodeHeads,
  threadKeys,
} from './node-repository';
import { clearSummaryRetry, dueSummaryRetries, recordSummaryFailure } from './summary-retries';
import { type TranscriptCandidate, transcriptCandidates } from './transcript-candidates';
import { appendTranscriptEntry, getTranscript, searchTranscripts } from './transcript-repository';

export const LINEAGE_DB_FILENAME = 'lineage.db';

/** `<root>/.cairn/state/lineage.db`. */
export function lineageDatabasePath(rootDir: string): string {
  return join(cairnStatePath(rootDir), LINEAGE_DB_FILENAME);
}

export interface LineageStoreOptions {
  /** How long a write waits for another process's lock. Default 5000 ms. */
  busyTimeoutMs?: number;
  /** The clock for default timestamps; tests pin it. */
  now?: () => Date;
}

/**
 * Tier 3: transcripts, temporal nodes, their DAG and unit links, in one
 * SQLite file shared by every process of a project. History is append-only:
 * there is no call that updates or deletes a transcript entry, a node, an
 * edge or a link. Calls are synchronous (one short transaction each) and
 * every read and write is scoped to one agent.
 */
export interface LineageStore {
  readonly path: string;
  schemaVersion(): number;

  /** Appends to the (agent, session) transcript, creating it on first use. */
  appendTranscriptEntry(input: AppendTranscriptEntryInput): AppendedEntry;
  getTranscript(
    agentId: string,
    sessionKey: string,
    options?: TranscriptReadOptions,
  ): Transcript | null;
  /**
   * Full-text fallback over the agent's transcripts. `keep` picks among the
   * ranked hits (best first) before any entry is read for its snippet.
   */
  searchTranscripts(
    agentId: string,
    query: string,
    options?: TranscriptSearchOptions,
    keep?: KeepTranscriptHits,
  ): TranscriptHit[];
  /** Full-text hits plus the most recent entries, with their text: what semantic ranking reads. */
  transcriptCandidates(
    agentId: string,
    query: string,
    options?: TranscriptSearchOptions & { recent?: number },
  ): TranscriptCandidate[];

  addNode(input: AddNodeInput): TemporalNode;
  /** NOT_FOUND when missing or owned by another agent. */
  getNode(agentId: string, nodeId: string): TemporalNode;
  /**
   * The agent's node id that `input` names, or a unique start of one
   * (CONFLICT when several share it, NOT_FOUND when none has it).
   */
  resolveNodeId(agentId: string, input: string): string;
  /** Every agent with transcripts or nodes here, with how many of each. */
  agents(): LineageAgent[];
  listNodes(filter: ListNodesFilter): TemporalNode[];
  /** Every node of a kind, of every agent, oldest first, without its text. */
  nodeHeads(kind: TemporalNode['kind']): NodeHead[];
  threadKeys(agentId: string): string[];
  countNodes(agentId: string, threadKey?: string): number;

  addEdge(agentId: string, parentId: string, childId: string): boolean;
  parents(agentId: string, nodeId: string): TemporalNode[];
  children(agentId: string, nodeId: string): TemporalNode[];
  /** Roots of the node's thread just before and after it in time. */
  neighbourRoots(agentId: string, nodeId: string, count: number): TemporalNode[];
  /** Atomic check-and-consume used by condensation; null if a root was already consumed. */
  condenseRoots(input: CondenseRootsInput): TemporalNode | null;

  linkUnits(agentId: string, nodeId: string, unitIds: string[]): number;
  linkedUnits(agentId: string, nodeId: string): string[];

  recordSummaryFailure(input: SummaryFailureInput): SummaryRetry;
  clearSummaryRetry(agentId: string, sessionKey: string): boolean;
  dueSummaryRetries(agentId: string, now?: Instant): SummaryRetry[];

  close(): void;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Opens (creating and migrating as needed) the project's lineage database. */
export function openLineageStore(rootDir: string, options: LineageStoreOptions = {}): LineageStore {
  if (typeof rootDir !== 'string' || rootDir === '') {
    throw new CairnError('INVALID_INPUT', 'openLineageStore needs the project root', {
      hint: 'pass the folder that holds .cairn/',
    });
  }
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new CairnError('INVALID_INPUT', `busyTimeoutMs must be a whole number of ms`, {
      hint: 'pass e.g. 5000',
    });
  }
  const path = lineageDatabasePath(rootDir);
  const db = openDatabase(path, { busyTimeoutMs });
  try {
    migrateLineageDatabase(db);
  } catch (error) {
    db.close();
    throw error;
  }
  const now = options.now ?? (() => new Date());
  return {
    path,
    schemaVersion: () => lineageSchemaVersion(db),
    appendTranscriptEntry: (input) => appendTranscriptEntry(db, now, input),
    getTranscript: (agentId, sessionKey, read) => getTranscript(db, agentId, sessionKey, read),
    searchTranscripts: (agentId, query, search, keep) =>
      searchTranscripts(db, agentId, query, search, keep),
    transcriptCandidates: (agentId, query, search) =>
      transcriptCandidates(db, agentId, query, search),
    addNode: (input) => addNode(db, now, input),
    getNode: (agentId, nodeId) => getNode(db, agentId, nodeId),
    resolveNodeId: (agentId, input) => resolveNodeId(db, agentId, input),
    agents: () => lineageAgents(db),
    listNodes: (filter) => listNodes(db, filter),
    nodeHeads: (kind) => nodeHeads(db, kind),
    threadKeys: (agentId) => threadKeys(db, agentId),
    countNodes: (agentId, threadKey) => countNodes(db, agentId, threadKey),
    addEdge: (agentId, parentId, childId) => addEdge(db, agentId, parentId, childId),
    parents: (agentId, nodeId) => parentsOf(db, agentId, nodeId),
    children: (agentId, nodeId) => childrenOf(db, agentId, nodeId),
    neighbourRoots: (agentId, nodeId, count) => neighbourRoots(db, agentId, nodeId, count),
    condenseRoots: (input) => condenseRoots(db, now, input),
    linkUnits: (agentId, nodeId, unitIds) => linkUnits(db, agentId, nodeId, unitIds),
    linkedUnits: (agentId, nodeId) => linkedUnits(db, agentId, nodeId),
    recordSummaryFailure: (input) => recordSummaryFailure(db, now, input),
    clearSummaryRetry: (agentId, sessionKey) => clearSummaryRetry(db, agentId, sessionKey),
    dueSummaryRetries: (agentId, at) => dueSummaryRetries(db, agentId, at ?? now()),
    close: () => db.close(),
  };
}

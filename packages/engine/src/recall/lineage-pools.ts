import { existsSync } from 'node:fs';
import {
  CAIRN_STATE_DIR,
  compareCodeUnits,
  type MemoryResult,
  type NormalizedMemoryQuery,
  wordRuns,
} from '@cairn/core';
import {
  LINEAGE_DB_FILENAME,
  type LineageStore,
  lineageDatabasePath,
  openLineageStore,
  queryTerms,
  type TemporalNode,
  type TemporalNodeKind,
  type TranscriptHit,
} from '../lineage';
import {
  type EnginePool,
  type LineageAccess,
  type PoolContext,
  SUMMARIES_POOL_ID,
  TRANSCRIPTS_POOL_ID,
  type TranscriptLookup,
} from './engine-pool';

export { SUMMARIES_POOL_ID, TRANSCRIPTS_POOL_ID };

/** Warm lineage: what sessions concluded (summaries, compactions), not their words; run digests are records of the `history` pool. */
const SUMMARY_KINDS: TemporalNodeKind[] = ['session_summary', 'compaction'];
/** The newest nodes of the agent a summaries recall scores. */
const NODES_READ = 200;
const SNIPPET_CHARS = 320;
const LINEAGE_PATH = `.cairn/${CAIRN_STATE_DIR}/${LINEAGE_DB_FILENAME}`;

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Share of the query's terms the text holds (0 to 1). */
function overlap(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  const words = new Set(wordRuns(text.toLowerCase()));
  return terms.filter((term) => words.has(term)).length / terms.length;
}

function nodeResult(node: TemporalNode, score: number): MemoryResult {
  return {
    id: node.id,
    uri: `lineage:${node.id}`,
    score,
    snippet: node.text.length > SNIPPET_CHARS ? `${node.text.slice(0, SNIPPET_CHARS)}…` : node.text,
    content: node.text,
    metadata: {
      poolId: SUMMARIES_POOL_ID,
      tier: 'warm',
      kind: node.kind,
      nodeId: node.id,
      threadKey: node.threadKey,
      ...(node.sessionKey ? { sessionKey: node.sessionKey } : {}),
      createdAt: node.endAt,
      source: node.source,
    },
  };
}

/**
 * Session summaries, compaction nodes and run digests of the calling
 * agent (warm): its newest nodes, scored by the share of query terms they
 * hold; a `threadKey` filter keeps one thread. Read only, never created.
 */
export function summariesPool(): EnginePool {
  return {
    definition: { id: SUMMARIES_POOL_ID, tier: 'warm', path: LINEAGE_PATH },
    async recall(query: NormalizedMemoryQuery, context: PoolContext) {
      const terms = queryTerms(query.query);
      const store = terms.length > 0 ? context.lineage() : undefined;
      if (!store) return [];
      const threadKey = single(query.filters?.threadKey);
      const nodes = store.listNodes({
        agentId: query.agentId,
        kinds: SUMMARY_KINDS,
        order: 'desc',
        limit: NODES_READ,
        ...(threadKey ? { threadKey } : {}),
      });
      return nodes
        .map((node) => ({ node, score: overlap(node.text, terms) }))
        .filter(({ score }) => score > 0)
        .sort((a, b) => b.score - a.score || compareCodeUnits(a.node.id, b.node.id))
        .slice(0, query.limit)
        .map(({ node, score }) => nodeResult(node, score));
    },
  };
}

/** The full-text lookup, when the caller brings no ranking of its own. */
function fullText(store: LineageStore) {
  return async (lookup: TranscriptLookup): Promise<TranscriptHit[]> => {
    const options = {
      limit: lookup.limit + 3,
      ...(lookup.threadKey ? { threadKey: lookup.threadKey } : {}),
      ...(lookup.excludeSessionKey ? { excludeSessionKey: lookup.excludeSessionKey } : {}),
    };
    return store.searchTranscripts(lookup.agentId, lookup.query, options, (hits) =>
      hits.filter((hit) => hit.sessionKey !== lookup.excludeSessionKey).slice(0, lookup.limit),
    );
  };
}

/** A transcript entry as recall reports it; `T:<transcript>:<seq>` names it for injection bookkeeping. */
export function transcriptResult(hit: TranscriptHit): MemoryResult {
  return {
    id: `T:${hit.transcriptId}:${hit.seq}`,
    uri: `lineage:transcript:${hit.transcriptId}#${hit.seq}`,
    // BM25 ranks are lower-better and negative; recall scores are higher-better.
    score: hit.score < 0 ? -hit.score : hit.score,
    snippet: hit.snippet,
    metadata: {
      poolId: TRANSCRIPTS_POOL_ID,
      tier: 'cold',
      kind: 'transcript',
      transcriptId: hit.transcriptId,
      seq: hit.seq,
      sessionKey: hit.sessionKey,
      role: hit.role,
      at: hit.at,
      ...(hit.toolName ? { toolName: hit.toolName } : {}),
    },
  };
}

/**
 * Transcripts of the calling agent (cold), through the lineage's FTS
 * index (or the caller's lookup, which may rank by meaning). Filters the
 * pool reads itself: `threadKey` (sessions of that thread) and
 * `excludeSessionKey` (the asking session, whose words the agent has).
 */
export function transcriptsPool(): EnginePool {
  return {
    definition: { id: TRANSCRIPTS_POOL_ID, tier: 'cold', path: LINEAGE_PATH },
    async recall(query: NormalizedMemoryQuery, context: PoolContext) {
      if (query.query.trim() === '') return [];
      const store = context.lineage();
      if (!store) return [];
      const lookup = context.transcripts ?? fullText(store);
      const threadKey = single(query.filters?.threadKey);
      const excludeSessionKey = single(query.filters?.excludeSessionKey);
      const hits = await lookup({
        agentId: query.agentId,
        query: query.query,
        limit: query.limit,
        ...(threadKey ? { threadKey } : {}),
        ...(excludeSessionKey ? { excludeSessionKey } : {}),
      });
      return hits.map(transcriptResult);
    },
  };
}

/**
 * The lineage pools of a project (warm summaries, cold transcripts) and
 * its store, opened read on first use and never created by a recall.
 */
export function createLineageAccess(rootDir: string): LineageAccess {
  let store: LineageStore | undefined;
  return {
    pools: [summariesPool(), transcriptsPool()],
    open() {
      if (!store && existsSync(lineageDatabasePath(rootDir))) store = openLineageStore(rootDir);
      return store;
    },
    close() {
      store?.close();
      store = undefined;
    },
  };
}

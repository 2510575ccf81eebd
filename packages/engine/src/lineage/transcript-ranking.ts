import type { SqliteDatabase } from './lineage-database';
import type { TranscriptHit } from './lineage-types';
import type { WeightedTerm } from './transcript-query';

const HIT_COLUMNS = `e.id, t.id AS transcriptId, t.session_key AS sessionKey, e.seq, e.role,
  e.tool_name AS toolName, e.at`;
const HIT_FILTER = `t.agent_id = @agentId
  AND (@threadKey IS NULL OR t.thread_key = @threadKey OR EXISTS (
    SELECT 1 FROM temporal_nodes n
    WHERE n.agent_id = t.agent_id AND n.session_key = t.session_key AND n.thread_key = @threadKey))`;

export type HitRow = Omit<TranscriptHit, 'snippet' | 'score'> & { id: number };

interface RankParams {
  terms: readonly WeightedTerm[];
  agentId: string;
  threadKey: string | null;
  limit: number;
}

interface TermEntries {
  weight: number;
  ids: number[];
}

/**
 * Entries by the summed weight of the query terms they hold, best first
 * and, among equals, newest first; the score is that sum negated (a rank:
 * lower is better, as FTS5 ranks).
 */
function rank(lists: readonly TermEntries[]): { id: number; score: number }[] {
  const totals = new Map<number, number>();
  for (const { weight, ids } of lists) {
    for (const id of ids) totals.set(id, (totals.get(id) ?? 0) + weight);
  }
  return [...totals]
    .map(([id, total]) => ({ id, score: -total }))
    .sort((a, b) => a.score - b.score || b.id - a.id);
}

/**
 * The best `limit` entries of this agent (and thread) for the terms. The
 * index is asked for each term's newest `window` entries (cheap: no join
 * per match), which are ranked and looked up one by one until `limit`
 * belong to this agent and thread; only when too few of them do, and a
 * term had more entries than the window, is the index joined with that
 * filter.
 */
export function rankedRows(
  db: SqliteDatabase,
  params: RankParams,
): { row: HitRow; score: number }[] {
  const window = Math.max(200, params.limit * 20);
  const newest = db.prepare(
    `SELECT rowid AS id FROM transcript_entries_fts
     WHERE transcript_entries_fts MATCH @match ORDER BY rowid DESC LIMIT @window`,
  );
  const lists = params.terms.map(({ weight, match }) => ({
    weight,
    ids: (newest.all({ match, window }) as { id: number }[]).map((row) => row.id),
  }));
  const hit = db.prepare(
    `SELECT ${HIT_COLUMNS} FROM transcript_entries e JOIN transcripts t ON t.id = e.transcript_id
     WHERE e.id = @id AND ${HIT_FILTER}`,
  );
  const scope = { agentId: params.agentId, threadKey: params.threadKey };
  const kept: { row: HitRow; score: number }[] = [];
  for (const { id, score } of rank(lists)) {
    if (kept.length >= params.limit) return kept;
    const row = hit.get({ id, ...scope }) as HitRow | undefined;
    if (row) kept.push({ row, score });
  }
  if (kept.length >= params.limit || lists.every((list) => list.ids.length < window)) return kept;
  const scoped = db.prepare(
    `SELECT e.id AS id FROM transcript_entries_fts f
     JOIN transcript_entries e ON e.id = f.rowid JOIN transcripts t ON t.id = e.transcript_id
     WHERE f.transcript_entries_fts MATCH @match AND ${HIT_FILTER}
     ORDER BY e.id DESC LIMIT @window`,
  );
  const scopedLists = params.terms.map(({ weight, match }) => ({
    weight,
    ids: (scoped.all({ match, window, ...scope }) as { id: number }[]).map((row) => row.id),
  }));
  return rank(scopedLists)
    .slice(0, params.limit)
    .map(({ id, score }) => ({ row: hit.get({ id, ...scope }) as HitRow, score }));
}

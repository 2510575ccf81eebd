import type { SqliteDatabase } from './lineage-database';
import type { TranscriptHit } from './lineage-types';
import type { WeightedTerm } from './transcript-query';

const HIT_COLUMNS = `e.id, t.id AS transcriptId, t.session_key AS sessionKey, e.seq, e.role,
  e.tool_name AS toolName, e.at`;
const HIT_FILTER = `t.agent_id = @agentId
  AND (@threadKey IS NULL OR t.thread_key = @threadKey OR EXISTS (
    SELECT 1 FROM temporal_nodes n
    WHERE n.agent_id = t.agent_id AND n.session_key = t.session_key AND n.thread_key = @threadKey))
  AND (@excludeSessionKey IS NULL OR t.session_key <> @excludeSessionKey)`;

export type HitRow = Omit<TranscriptHit, 'snippet' | 'score'> & { id: number };

interface RankParams {
  terms: readonly WeightedTerm[];
  agentId: string;
  threadKey: string | null;
  excludeSessionKey: string | null;
  limit: number;
}

interface TermEntries {
  weight: number;
  ids: number[];
}

interface Ranked {
  id: number;
  score: number;
  /** The indices of the query terms the entry holds. */
  terms: number[];
}

/**
 * Entries by the summed weight of the query terms they hold, best first
 * and, among equals, newest first; the score is that sum negated (a rank:
 * lower is better, as FTS5 ranks).
 */
function rank(lists: readonly TermEntries[]): Ranked[] {
  const entries = new Map<number, Ranked>();
  for (const [index, { weight, ids }] of lists.entries()) {
    for (const id of ids) {
      const entry = entries.get(id) ?? { id, score: 0, terms: [] };
      entry.score -= weight;
      entry.terms.push(index);
      entries.set(id, entry);
    }
  }
  return [...entries.values()].sort((a, b) => a.score - b.score || b.id - a.id);
}

/**
 * The ranked entries in the order they are taken: while a query term is
 * held by no entry taken yet, the best entry that holds one comes next.
 * When no entry holds every term, a prompt naming two things gets an entry
 * for each, not the newest few of the first (equal weights tie on the
 * newest). `accept` says whether an entry belongs to the agent and thread.
 */
function* diverse(ranked: readonly Ranked[], accept: (id: number) => boolean) {
  const covered = new Set<number>();
  const left = [...ranked];
  for (;;) {
    const at = left.findIndex((entry) => entry.terms.some((term) => !covered.has(term)));
    if (at < 0) break;
    const [entry] = left.splice(at, 1);
    if (!accept(entry!.id)) continue;
    for (const term of entry!.terms) covered.add(term);
    yield entry!;
  }
  for (const entry of left) if (accept(entry.id)) yield entry;
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
  const scope = {
    agentId: params.agentId,
    threadKey: params.threadKey,
    excludeSessionKey: params.excludeSessionKey,
  };
  const kept: { row: HitRow; score: number }[] = [];
  const rows = new Map<number, HitRow>();
  const accept = (id: number) => {
    const row = hit.get({ id, ...scope }) as HitRow | undefined;
    if (row) rows.set(id, row);
    return row !== undefined;
  };
  for (const { id, score } of diverse(rank(lists), accept)) {
    kept.push({ row: rows.get(id)!, score });
    if (kept.length >= params.limit) return kept;
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
  const scopedKept: { row: HitRow; score: number }[] = [];
  for (const { id, score } of diverse(rank(scopedLists), () => true)) {
    scopedKept.push({ row: hit.get({ id, ...scope }) as HitRow, score });
    if (scopedKept.length >= params.limit) break;
  }
  return scopedKept;
}

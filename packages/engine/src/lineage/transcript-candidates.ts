import { parseInput } from '@cairn/core';
import { readTransaction, type SqliteDatabase } from './lineage-database';
import { agentIdSchema, transcriptSearchSchema } from './lineage-inputs';
import type { TranscriptHit, TranscriptSearchOptions } from './lineage-types';
import { readEntryText, searchTranscripts } from './transcript-repository';

/** A transcript entry to rank by meaning: a hit with the entry's text (bounded). */
export interface TranscriptCandidate extends TranscriptHit {
  text: string;
  /** Found by full-text search (the hits come first, best first), not only as a recent entry. */
  matched: boolean;
}

/** How much of an entry is embedded; long tool output adds cost, not meaning. */
export const CANDIDATE_TEXT_CHARS = 2000;

const THREAD_FILTER = `(@threadKey IS NULL OR t.thread_key = @threadKey OR EXISTS (
  SELECT 1 FROM temporal_nodes n
  WHERE n.agent_id = t.agent_id AND n.session_key = t.session_key AND n.thread_key = @threadKey))`;

/**
 * The entries worth ranking by meaning for `query`: the full-text hits,
 * plus the agent's most recent entries (of the thread, with `threadKey`),
 * which catch a paraphrase that shares no word with the query. Each comes
 * with its text, cut to CANDIDATE_TEXT_CHARS.
 */
export function transcriptCandidates(
  db: SqliteDatabase,
  agentIdRaw: string,
  query: string,
  optionsRaw: TranscriptSearchOptions & { recent?: number } = {},
): TranscriptCandidate[] {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const { recent = 200, ...search } = optionsRaw;
  const options = parseInput(transcriptSearchSchema, { ...search, query }, 'search options');
  const hits = searchTranscripts(db, agentId, query, options);
  const rows = readTransaction(
    db,
    'read transcript candidates',
    () =>
      db
        .prepare(
          `SELECT t.id AS transcriptId, t.session_key AS sessionKey, e.seq, e.role,
           e.tool_name AS toolName, e.at, e.text, e.body
         FROM transcript_entries e JOIN transcripts t ON t.id = e.transcript_id
         WHERE t.agent_id = @agentId AND ${THREAD_FILTER}
         ORDER BY e.id DESC LIMIT @recent`,
        )
        .all({
          agentId,
          threadKey: options.threadKey ?? null,
          recent,
        }) as (Omit<TranscriptCandidate, 'snippet' | 'score' | 'matched'> & {
        body: Uint8Array | null;
      })[],
  ).map(({ body, ...row }) => ({
    ...row,
    text: readEntryText({ text: row.text, body }).slice(0, CANDIDATE_TEXT_CHARS),
  }));
  const byKey = new Map(rows.map((row) => [`${row.transcriptId}:${row.seq}`, row]));
  const candidates: TranscriptCandidate[] = hits.map((hit) => {
    const row = byKey.get(`${hit.transcriptId}:${hit.seq}`);
    byKey.delete(`${hit.transcriptId}:${hit.seq}`);
    return { ...hit, text: row?.text ?? hit.snippet, matched: true };
  });
  for (const row of byKey.values()) {
    candidates.push({ ...row, snippet: snippetOf(row.text), score: 0, matched: false });
  }
  return candidates;
}

function snippetOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 200 ? flat : `${flat.slice(0, 199)}…`;
}

import { parseInput } from '@cairn/core';
import type { z } from 'zod';
import { readTransaction, type SqliteDatabase, writeTransaction } from './lineage-database';
import {
  agentIdSchema,
  appendEntrySchema,
  sessionKeySchema,
  transcriptReadSchema,
  transcriptSearchSchema,
} from './lineage-inputs';
import type {
  AppendedEntry,
  AppendTranscriptEntryInput,
  Transcript,
  TranscriptEntry,
  TranscriptHit,
  TranscriptReadOptions,
  TranscriptRole,
  TranscriptSearchOptions,
} from './lineage-types';

/** More terms only slow the OR query down without changing the top hits. */
const MAX_QUERY_TERMS = 32;
const DEFAULT_READ_LIMIT = 500;

interface TranscriptRow {
  id: number;
  agent_id: string;
  session_key: string;
  harness: string | null;
  cwd: string | null;
  thread_key: string | null;
  started_at: string;
}

interface EntryRow {
  seq: number;
  role: TranscriptRole;
  text: string;
  tool_name: string | null;
  at: string;
}

const toEntry = (row: EntryRow): TranscriptEntry => ({
  seq: row.seq,
  role: row.role,
  text: row.text,
  toolName: row.tool_name,
  at: row.at,
});

/**
 * Appends one entry, creating the (agent, session) transcript on first use.
 * Harness, cwd and thread are filled in once and never overwritten.
 */
export function appendTranscriptEntry(
  db: SqliteDatabase,
  now: () => Date,
  raw: AppendTranscriptEntryInput,
): AppendedEntry {
  const input = parseInput(appendEntrySchema, raw, 'transcript entry');
  const at = input.at ?? now().toISOString();
  return writeTransaction(db, 'append a transcript entry', () => {
    const transcript = db
      .prepare(
        `INSERT INTO transcripts (agent_id, session_key, harness, cwd, thread_key, started_at)
         VALUES (@agentId, @sessionKey, @harness, @cwd, @threadKey, @at)
         ON CONFLICT (agent_id, session_key) DO UPDATE SET
           harness = COALESCE(transcripts.harness, excluded.harness),
           cwd = COALESCE(transcripts.cwd, excluded.cwd),
           thread_key = COALESCE(transcripts.thread_key, excluded.thread_key)
         RETURNING id`,
      )
      .get({
        agentId: input.agentId,
        sessionKey: input.sessionKey,
        harness: input.harness ?? null,
        cwd: input.cwd ?? null,
        threadKey: input.threadKey ?? null,
        at,
      }) as { id: number };
    const { seq } = db
      .prepare(
        `INSERT INTO transcript_entries (transcript_id, seq, role, text, tool_name, at)
         SELECT @id, COALESCE(MAX(seq), 0) + 1, @role, @text, @toolName, @at
         FROM transcript_entries WHERE transcript_id = @id
         RETURNING seq`,
      )
      .get({
        id: transcript.id,
        role: input.role,
        text: input.text,
        toolName: input.toolName ?? null,
        at,
      }) as { seq: number };
    return { transcriptId: transcript.id, seq };
  });
}

function entryWindow(
  db: SqliteDatabase,
  transcriptId: number,
  options: z.output<typeof transcriptReadSchema>,
): TranscriptEntry[] {
  const rows = db
    .prepare(
      `SELECT seq, role, text, tool_name, at FROM transcript_entries
       WHERE transcript_id = @id AND seq >= @fromSeq
         AND (@fromAt IS NULL OR at >= @fromAt) AND (@toAt IS NULL OR at <= @toAt)
       ORDER BY seq LIMIT @limit`,
    )
    .all({
      id: transcriptId,
      fromSeq: options.fromSeq ?? 1,
      fromAt: options.fromAt ?? null,
      toAt: options.toAt ?? null,
      limit: options.limit ?? DEFAULT_READ_LIMIT,
    }) as EntryRow[];
  return rows.map(toEntry);
}

/** One agent's transcript of a session, or null; entries are a window (default the first 500). */
export function getTranscript(
  db: SqliteDatabase,
  agentIdRaw: string,
  sessionKeyRaw: string,
  optionsRaw: TranscriptReadOptions = {},
): Transcript | null {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const sessionKey = parseInput(sessionKeySchema, sessionKeyRaw, 'sessionKey');
  const options = parseInput(transcriptReadSchema, optionsRaw, 'transcript read options');
  return readTransaction(db, 'read a transcript', () => {
    const row = db
      .prepare('SELECT * FROM transcripts WHERE agent_id = ? AND session_key = ?')
      .get(agentId, sessionKey) as TranscriptRow | undefined;
    if (!row) return null;
    const { total } = db
      .prepare('SELECT COUNT(*) AS total FROM transcript_entries WHERE transcript_id = ?')
      .get(row.id) as { total: number };
    return {
      transcriptId: row.id,
      agentId: row.agent_id,
      sessionKey: row.session_key,
      harness: row.harness,
      cwd: row.cwd,
      threadKey: row.thread_key,
      startedAt: row.started_at,
      entries: entryWindow(db, row.id, options),
      totalEntries: total,
    };
  });
}

/** An FTS5 MATCH expression: every term quoted (never read as an operator) and OR-ed. */
export function buildFtsQuery(query: string): string | undefined {
  const terms = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  if (terms.length === 0) return undefined;
  return terms
    .slice(0, MAX_QUERY_TERMS)
    .map((term) => `"${term}"`)
    .join(' OR ');
}

/**
 * Full-text search over one agent's transcript entries. This is the fallback
 * surface (seed 002 §4): structured memory and summaries are read first.
 * With `threadKey`, only sessions started in that thread or summarised into it.
 */
export function searchTranscripts(
  db: SqliteDatabase,
  agentIdRaw: string,
  query: string,
  optionsRaw: TranscriptSearchOptions = {},
): TranscriptHit[] {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const options = parseInput(transcriptSearchSchema, { ...optionsRaw, query }, 'search options');
  const match = buildFtsQuery(options.query);
  if (!match) return [];
  return readTransaction(
    db,
    'search transcripts',
    () =>
      db
        .prepare(
          `SELECT t.id AS transcriptId, t.session_key AS sessionKey, e.seq, e.role,
           e.tool_name AS toolName, e.at,
           snippet(transcript_entries_fts, 0, '', '', '…', 32) AS snippet,
           bm25(transcript_entries_fts) AS score
         FROM transcript_entries_fts
         JOIN transcript_entries e ON e.id = transcript_entries_fts.rowid
         JOIN transcripts t ON t.id = e.transcript_id
         WHERE transcript_entries_fts MATCH @match AND t.agent_id = @agentId
           AND (@threadKey IS NULL OR t.thread_key = @threadKey OR EXISTS (
             SELECT 1 FROM temporal_nodes n
             WHERE n.agent_id = t.agent_id AND n.session_key = t.session_key
               AND n.thread_key = @threadKey))
         ORDER BY score, e.id LIMIT @limit`,
        )
        .all({
          match,
          agentId,
          threadKey: options.threadKey ?? null,
          limit: options.limit,
        }) as TranscriptHit[],
  );
}

import { createRequire } from 'node:module';
import { parseInput, redactSecrets, secretKinds } from '@cairn/core';
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
  KeepTranscriptHits,
  RankedTranscriptHit,
  Transcript,
  TranscriptEntry,
  TranscriptHit,
  TranscriptReadOptions,
  TranscriptRole,
  TranscriptSearchOptions,
} from './lineage-types';
import { buildSnippet, snippetTerms } from './snippet';
import { queryTerms, weightedTerms } from './transcript-query';
import { rankedRows } from './transcript-ranking';

/** zlib is loaded on the first long entry: a hook that only recalls never pays for it. */
let zlib: typeof import('node:zlib') | undefined;
const lazyZlib = () =>
  (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'));

/**
 * Tier 3 keeps every entry whole (lossless), but a year of tool output is
 * mostly logs and file reads that are read back rarely. An entry longer
 * than COMPRESS_ABOVE characters is stored as a raw DEFLATE stream
 * (RFC 1951, of its UTF-8) in `body`, with a short preview (its head) in
 * `text`; shorter entries are stored as they are. The full-text index
 * holds every entry's full text (the repository feeds it), and reads
 * return the full text: nothing is ever dropped.
 */
export const COMPRESS_ABOVE = 1024;
const PREVIEW_CHARS = 160;

export interface StoredEntryText {
  /** The text itself, or its preview when `body` is set. */
  text: string;
  /** The full text, compressed; null when `text` is the full text. */
  body: Uint8Array | null;
}

export function storeEntryText(full: string): StoredEntryText {
  if (full.length <= COMPRESS_ABOVE) return { text: full, body: null };
  return {
    text: `${full.slice(0, pairSafe(full, PREVIEW_CHARS))}…`,
    body: lazyZlib().deflateRawSync(Buffer.from(full, 'utf8'), { level: 6 }),
  };
}

/** The full text of a stored entry. */
export function readEntryText(row: { text: string; body?: Uint8Array | null }): string {
  if (!row.body) return row.text;
  return lazyZlib().inflateRawSync(row.body).toString('utf8');
}

/** `at`, moved one back when it would split a surrogate pair. */
function pairSafe(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

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
  body: Uint8Array | null;
  tool_name: string | null;
  at: string;
}

const toEntry = (row: EntryRow): TranscriptEntry => ({
  seq: row.seq,
  role: row.role,
  text: readEntryText(row),
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
  // Compressed before the write lock is taken: other writers wait less.
  const stored = storeEntryText(input.text);
  const secrets = secretKinds(input.text).join(',');
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
    const { id, seq } = db
      .prepare(
        `INSERT INTO transcript_entries
           (transcript_id, seq, role, text, body, tool_name, at, secrets)
         SELECT @id, COALESCE(MAX(seq), 0) + 1, @role, @text, @body, @toolName, @at, @secrets
         FROM transcript_entries WHERE transcript_id = @id
         RETURNING id, seq`,
      )
      .get({
        id: transcript.id,
        role: input.role,
        text: stored.text,
        body: stored.body,
        toolName: input.toolName ?? null,
        at,
        secrets,
      }) as { id: number; seq: number };
    // The index holds the full text, also of entries stored compressed.
    db.prepare('INSERT INTO transcript_entries_fts (rowid, text) VALUES (?, ?)').run(
      id,
      input.text,
    );
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
      `SELECT seq, role, text, body, tool_name, at FROM transcript_entries
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
  keep: KeepTranscriptHits = (hits) => hits,
): TranscriptHit[] {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const options = parseInput(transcriptSearchSchema, { ...optionsRaw, query }, 'search options');
  const weighted = weightedTerms(db, options.query);
  if (weighted.length === 0) return [];
  const terms = snippetTerms(queryTerms(options.query).join(' '));
  return readTransaction(db, 'search transcripts', () => {
    const ranked = rankedRows(db, {
      terms: weighted,
      agentId,
      threadKey: options.threadKey ?? null,
      excludeSessionKey: options.excludeSessionKey ?? null,
      limit: options.limit,
    });
    // Only the entries kept (by rank, then by `keep`) are read (and inflated) for their snippets.
    const ids = new Map<RankedTranscriptHit, number>();
    const heads = ranked.map(({ row: { id, ...hit }, score }) => {
      const head = { ...hit, score };
      ids.set(head, id);
      return head;
    });
    const textOf = db.prepare('SELECT text, body FROM transcript_entries WHERE id = ?');
    return keep(heads).map((head) => {
      const { score, ...hit } = head;
      const row = textOf.get(ids.get(head)) as { text: string; body: Uint8Array | null };
      // Redacted before the window is cut: a snippet never shows part of a secret.
      const text = redactSecrets(readEntryText(row)).text;
      return { ...hit, snippet: buildSnippet(text, terms), score };
    });
  });
}

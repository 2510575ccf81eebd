import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * OpenClaw's after_compaction event carries no summary: the summary is the
 * `compaction` entry it appended to the session transcript, in the agent's
 * SQLite store. Read with `node:sqlite` (OpenClaw runs on Node >= 24), so
 * this module is only imported inside the plugin.
 */

/** `sqlite:<agentId>:<sessionId>:<sessions.json path>` → the agent database beside it. */
export function agentDatabasePath(
  sessionFile: string | undefined,
  agentId: string,
  env: Record<string, string | undefined>,
): string {
  const match = sessionFile?.match(/^sqlite:[^:]*:[^:]*:(.+)$/);
  if (match) return join(dirname(dirname(match[1]!)), 'agent', 'openclaw-agent.sqlite');
  const stateDir = env.OPENCLAW_STATE_DIR || join(homedir(), '.openclaw');
  return join(stateDir, 'agents', agentId, 'agent', 'openclaw-agent.sqlite');
}

interface SqliteModule {
  DatabaseSync: new (
    path: string,
    options: { readOnly: boolean },
  ) => { prepare(sql: string): { all(...params: unknown[]): unknown[] }; close(): void };
}

interface EventRow {
  event_json: string | null;
  event_zstd: Uint8Array | null;
}

async function decode(row: EventRow): Promise<string | undefined> {
  if (row.event_json !== null) return row.event_json;
  if (row.event_zstd === null) return undefined;
  const zlib = (await import('node:zlib')) as { zstdDecompressSync?: (data: Uint8Array) => Buffer };
  return zlib.zstdDecompressSync?.(row.event_zstd).toString('utf8');
}

/** The newest compaction summary of the session(s), or undefined when none is found. */
export async function readCompactionSummary(
  databasePath: string,
  sessionIds: string[],
): Promise<string | undefined> {
  if (!existsSync(databasePath)) return undefined;
  // A variable specifier: Node 20's types (and Node 20 itself) have no node:sqlite.
  const specifier = 'node:sqlite';
  const { DatabaseSync } = (await import(specifier)) as SqliteModule;
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    const statement = db.prepare(
      'SELECT event_json, event_zstd FROM transcript_events WHERE session_id = ? ORDER BY seq DESC LIMIT 500',
    );
    for (const sessionId of sessionIds) {
      for (const row of statement.all(sessionId) as EventRow[]) {
        const text = await decode(row);
        if (!text?.includes('"compaction"')) continue;
        const entry = JSON.parse(text) as { type?: unknown; summary?: unknown };
        if (entry.type === 'compaction' && typeof entry.summary === 'string') return entry.summary;
      }
    }
    return undefined;
  } finally {
    db.close();
  }
}

import { type FixStep, HISTORY_MIGRATIONS, stepsIdentity } from '../history';
import { LINEAGE_MIGRATIONS, migrateLineageDatabase } from '../lineage';
import { type Database, migrate } from '../store';
import { HEADS_MIGRATIONS } from '../working';
import type { ArchiveDatabase } from './archive-records';

/**
 * What an archive holds of each state database, and how `cairn import`
 * merges a row into a project that may have rows already: a table's
 * `key` names a row across projects (a session by agent and session key,
 * a failure by its event), so a row the project has is skipped, which is
 * what makes an import idempotent. Integer ids the project has used
 * already are moved past its largest (`id`), and the columns that point
 * at them (`refs`, and `T:<transcript>:<seq>` event ids) follow. Tables a
 * trigger keeps (node_roots, thread_sessions) and the full-text index are
 * rebuilt by the import, not carried.
 */
export interface TableSpec {
  table: string;
  /** The columns that name a row in any project (after its refs are remapped). */
  key: readonly string[];
  /** An integer id other rows point at: moved past the project's largest for a new row. */
  id?: string;
  /** A text id other rows point at: the project's own id when it has the row (by `key`), else kept. */
  textId?: string;
  /** Columns holding another table's `id` or `textId`, and that table. */
  refs?: Readonly<Record<string, string>>;
  /** Columns holding transcript event ids (`T:<transcript id>:<seq>`). */
  events?: readonly string[];
  /** Columns set on import, whatever the archive says: a lease never moves to another machine. */
  reset?: Readonly<Record<string, string | number | null>>;
  /** What else names a row, computed from it (a pattern's steps, whatever folder they ran in). */
  identity?: (row: Readonly<Record<string, unknown>>) => string;
  /** A WITHOUT ROWID table: its rows are read in key order, not in the order they were written. */
  withoutRowid?: true;
}

/** A pattern's steps as `stepsIdentity` tells them apart; the text itself when it is not a list of steps. */
function patternStepsIdentity(steps: unknown): string {
  try {
    return stepsIdentity(JSON.parse(String(steps)) as FixStep[]);
  } catch {
    return String(steps);
  }
}

/** The order an archive lists a table's rows in: as written (rowid), which an import keeps. */
export const rowOrder = (spec: TableSpec) =>
  spec.withoutRowid ? spec.key.join(', ') : (spec.id ?? 'rowid');

export const ARCHIVE_TABLES: Record<ArchiveDatabase, readonly TableSpec[]> = {
  lineage: [
    { table: 'transcripts', key: ['agent_id', 'session_key'], id: 'id' },
    {
      table: 'transcript_entries',
      key: ['transcript_id', 'seq'],
      id: 'id',
      refs: { transcript_id: 'transcripts' },
    },
    { table: 'temporal_nodes', key: ['id'] },
    { table: 'node_edges', key: ['parent_id', 'child_id'], withoutRowid: true },
    { table: 'node_links', key: ['node_id', 'unit_id'], withoutRowid: true },
    { table: 'summary_retries', key: ['agent_id', 'session_key'], withoutRowid: true },
  ],
  heads: [
    { table: 'project_facts', key: ['key'], withoutRowid: true },
    {
      table: 'head_records',
      key: ['agent_id', 'scope'],
      reset: { lease_owner: null, lease_expires_ms: 0 },
    },
    { table: 'sessions', key: ['agent_id', 'session_key'] },
    {
      table: 'injections',
      key: ['agent_id', 'session_key', 'epoch', 'item_id'],
      events: ['item_id'],
      withoutRowid: true,
    },
    { table: 'thread_states', key: ['agent_id', 'thread_key'] },
    { table: 'node_facts', key: ['node_id'] },
    { table: 'pending_writes', key: ['agent_id', 'scope', 'requested_ms', 'reason'], id: 'id' },
    { table: 'pack_receipts', key: ['receipt_id'], id: 'seq' },
  ],
  history: [
    {
      // The same fix in a folder named otherwise (another repo, another id) is the same
      // pattern; one of the same step keys with other commands or files is another.
      table: 'patterns',
      key: ['namespace', 'signature', 'steps_key'],
      identity: (row) => patternStepsIdentity(row.steps),
      textId: 'id',
      events: ['failure_event_id', 'success_event_id'],
    },
    {
      table: 'failures',
      key: ['event_id', 'agent_id', 'session_key'],
      id: 'id',
      refs: { step_cursor: 'steps', pattern_id: 'patterns' },
      events: ['event_id', 'resolved_event_id'],
    },
    {
      table: 'steps',
      key: ['agent_id', 'session_key', 'event_id', 'step_key'],
      id: 'id',
      events: ['event_id'],
    },
    {
      table: 'pattern_runs',
      key: ['pattern_id', 'session_key', 'role', 'failure_event_id'],
      refs: { pattern_id: 'patterns' },
      events: ['failure_event_id', 'success_event_id'],
      withoutRowid: true,
    },
    {
      table: 'applications',
      key: ['pattern_id', 'agent_id', 'session_key', 'failure_id', 'at'],
      id: 'id',
      refs: { failure_id: 'failures', step_cursor: 'steps', pattern_id: 'patterns' },
    },
    {
      table: 'shared_evidence',
      key: ['pattern_id', 'author'],
      refs: { pattern_id: 'patterns' },
      withoutRowid: true,
    },
    { table: 'shared_files', key: ['author'], withoutRowid: true },
  ],
};

/** The file under `.cairn/state/` of each database. */
export const DATABASE_FILES: Record<ArchiveDatabase, string> = {
  lineage: 'lineage.db',
  heads: 'heads.db',
  history: 'history.db',
};

/** The schema version this Cairn writes for each database. */
export const SCHEMA_VERSIONS: Record<ArchiveDatabase, number> = {
  lineage: LINEAGE_MIGRATIONS.length,
  heads: HEADS_MIGRATIONS.length,
  history: HISTORY_MIGRATIONS.length,
};

/** Brings a database to `version` of its schema (the current one by default). */
export function migrateTo(
  name: ArchiveDatabase,
  db: Database,
  version = SCHEMA_VERSIONS[name],
): void {
  if (name === 'lineage') migrateLineageDatabase(db, version);
  else migrate(db, (name === 'heads' ? HEADS_MIGRATIONS : HISTORY_MIGRATIONS).slice(0, version));
}

/** The schema version a database is at. */
export function schemaVersionOf(name: ArchiveDatabase, db: Database): number {
  if (name !== 'lineage') return db.pragma('user_version', { simple: true }) as number;
  const row = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number };
  return row.v ?? 0;
}

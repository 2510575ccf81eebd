import { readEntryText } from '../lineage';
import type { Database } from '../store';
import type { ArchiveDatabase } from './archive-records';
import { ARCHIVE_TABLES, rowOrder, type TableSpec } from './archive-tables';

/**
 * How a table's ids move into the project: an integer id past the
 * project's largest (`offset`), and any id to the project's own when it
 * has the row already (`ids`).
 */
interface IdMap {
  offset: number;
  ids: Map<number | string, number | string>;
}

/** The id maps of one import, across its databases (history's event ids name lineage's transcripts). */
export type IdMaps = Map<string, IdMap>;

export interface TableMerge {
  inserted: number;
  skipped: number;
}

type Row = Record<string, unknown>;

const EVENT_ID = /^T:(\d+):(\d+)$/;

function mapped(maps: IdMaps, table: string, id: number | string): number | string {
  const map = maps.get(table);
  if (!map) return id;
  return map.ids.get(id) ?? (typeof id === 'number' ? id + map.offset : id);
}

/** The row as the project will hold it: its refs and event ids moved, its reset columns set. */
function remap(spec: TableSpec, row: Row, maps: IdMaps): Row {
  const out: Row = { ...row, ...spec.reset };
  for (const [column, table] of Object.entries(spec.refs ?? {})) {
    const value = out[column];
    if (typeof value === 'number' || typeof value === 'string')
      out[column] = mapped(maps, table, value);
  }
  for (const column of spec.events ?? []) {
    const match = typeof out[column] === 'string' ? EVENT_ID.exec(out[column] as string) : null;
    if (match) out[column] = `T:${mapped(maps, 'transcripts', Number(match[1]))}:${match[2]}`;
  }
  return out;
}

const keyOf = (spec: TableSpec, row: Row) =>
  JSON.stringify([...spec.key.map((column) => row[column]), spec.identity?.(row)]);

/** The project's rows of a table by key (with their id when the table has one). */
function existingKeys(db: Database, spec: TableSpec): Map<string, number | string | true> {
  const keys = new Map<string, number | string | true>();
  const id = spec.id ?? spec.textId;
  const columns = spec.identity ? '*' : [...new Set([...spec.key, ...(id ? [id] : [])])].join(', ');
  for (const row of db.prepare(`SELECT ${columns} FROM ${spec.table}`).iterate() as Iterable<Row>) {
    keys.set(keyOf(spec, row), id ? (row[id] as number | string) : true);
  }
  return keys;
}

/** Inserts rows with the columns they have; the full-text index learns each transcript entry. */
function inserter(db: Database, table: string) {
  const statements = new Map<string, { run(...values: unknown[]): unknown }>();
  const fts =
    table === 'transcript_entries'
      ? db.prepare('INSERT INTO transcript_entries_fts (rowid, text) VALUES (?, ?)')
      : undefined;
  return (row: Row) => {
    const columns = Object.keys(row);
    const key = columns.join(',');
    let statement = statements.get(key);
    if (!statement) {
      statement = db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      statements.set(key, statement);
    }
    statement.run(...columns.map((column) => row[column]));
    fts?.run(row.id, readEntryText(row as { text: string; body: Uint8Array | null }));
  };
}

function mergeTable(source: Database, target: Database, spec: TableSpec, maps: IdMaps): TableMerge {
  const stats: TableMerge = { inserted: 0, skipped: 0 };
  const present = existingKeys(target, spec);
  const insert = inserter(target, spec.table);
  const idColumn = spec.id ?? spec.textId;
  const ids = idColumn ? maps.get(spec.table)! : undefined;
  const rows = source.prepare(`SELECT * FROM ${spec.table} ORDER BY ${rowOrder(spec)}`).iterate();
  for (const original of rows as Iterable<Row>) {
    const row = remap(spec, original, maps);
    const found = present.get(keyOf(spec, row));
    const sourceId = idColumn ? (original[idColumn] as number | string) : undefined;
    if (found !== undefined) {
      if (ids && found !== true) ids.ids.set(sourceId!, found);
      stats.skipped += 1;
      continue;
    }
    if (ids && spec.id) {
      row[spec.id] = (sourceId as number) + ids.offset;
      ids.ids.set(sourceId!, row[spec.id] as number);
    }
    insert(row);
    present.set(keyOf(spec, row), idColumn ? (row[idColumn] as number | string) : true);
    stats.inserted += 1;
  }
  return stats;
}

/**
 * Merges a staged database into the project's, in one transaction: a row
 * the project has (by its table's key) is skipped, any other is inserted,
 * its integer id moved past the project's largest when the project has
 * rows (an empty project keeps every id as it was, so a restore is exact).
 */
export function mergeDatabase(
  name: ArchiveDatabase,
  source: Database,
  target: Database,
  maps: IdMaps,
): Record<string, TableMerge> {
  const result: Record<string, TableMerge> = {};
  target
    .transaction(() => {
      for (const spec of ARCHIVE_TABLES[name]) {
        if (spec.textId) maps.set(spec.table, { offset: 0, ids: new Map() });
        if (!spec.id) continue;
        const row = target
          .prepare(`SELECT coalesce(max(${spec.id}), 0) AS top FROM ${spec.table}`)
          .get() as {
          top: number;
        };
        maps.set(spec.table, { offset: row.top, ids: new Map() });
      }
      for (const spec of ARCHIVE_TABLES[name]) {
        result[`${name}.${spec.table}`] = mergeTable(source, target, spec, maps);
      }
    })
    .immediate();
  return result;
}

import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import {
  CairnError,
  cairnPath,
  cairnStatePath,
  listMemoryFiles,
  listSharedFixesFiles,
  MEMORY_WORKSPACE_PATH,
  memoryWorkspacePath,
} from '@cairn/core';
import { type Database, openDatabase } from '../store';
import {
  ARCHIVE_DATABASES,
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type ArchiveDatabase,
  type ArchiveHeader,
  encodeValue,
} from './archive-records';
import {
  ARCHIVE_TABLES,
  DATABASE_FILES,
  migrateTo,
  rowOrder,
  SCHEMA_VERSIONS,
} from './archive-tables';

/** Files of `.cairn/` an archive carries besides the memory workspace. */
export const PROJECT_FILES = ['.cairn/config.json', '.cairn/.gitignore'] as const;

export interface ExportResult {
  path: string;
  bytes: number;
  files: number;
  /** Rows per `<db>.<table>`. */
  rows: Record<string, number>;
}

/** The project-relative files an archive carries: the workspace's, then the settings. */
async function projectFiles(rootDir: string): Promise<string[]> {
  const workspace = [...(await listMemoryFiles(rootDir)), ...(await listSharedFixesFiles(rootDir))];
  const extra = PROJECT_FILES.filter((path) => existsSync(join(rootDir, path)));
  return [...workspace.map((file) => `${MEMORY_WORKSPACE_PATH}/${file.path}`), ...extra];
}

/**
 * Every row of a database's archived tables, read in one snapshot (a read
 * transaction held while the rows stream out, so sessions that end
 * meanwhile neither block nor tear the archive).
 */
function* databaseRows(name: ArchiveDatabase, db: Database) {
  db.exec('BEGIN DEFERRED');
  try {
    for (const spec of ARCHIVE_TABLES[name]) {
      for (const row of db
        .prepare(`SELECT * FROM ${spec.table} ORDER BY ${rowOrder(spec)}`)
        .iterate())
        yield { table: spec.table, row: row as Record<string, unknown> };
    }
  } finally {
    db.exec('COMMIT');
  }
}

function openState(rootDir: string, name: ArchiveDatabase): Database | undefined {
  const path = join(cairnStatePath(rootDir), DATABASE_FILES[name]);
  if (!existsSync(path)) return undefined;
  const db = openDatabase(path);
  try {
    // A database an older Cairn wrote is brought to this schema first: archives hold the current one.
    migrateTo(name, db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The archive's lines: the header, every file (bytes as base64), every
 * row of every state database, and the trailer that counts and hashes them.
 */
async function* archiveLines(rootDir: string, now: Date, version: string, result: ExportResult) {
  const hash = createHash('sha256');
  let lines = 0;
  const emit = (value: unknown) => {
    const line = `${JSON.stringify(value)}\n`;
    hash.update(line);
    lines += 1;
    return line;
  };
  const open = new Map<ArchiveDatabase, Database>();
  try {
    for (const name of ARCHIVE_DATABASES) {
      const db = openState(rootDir, name);
      if (db) open.set(name, db);
    }
    const schemas: ArchiveHeader['schemas'] = {};
    for (const name of open.keys()) schemas[name] = SCHEMA_VERSIONS[name];
    const header: ArchiveHeader = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: now.toISOString(),
      cairn: version,
      schemas,
    };
    yield emit(header);
    for (const path of await projectFiles(rootDir)) {
      const data = await fsp.readFile(join(rootDir, path));
      result.files += 1;
      yield emit({ type: 'file', path, data: data.toString('base64') });
    }
    for (const [name, db] of open) {
      for (const { table, row } of databaseRows(name, db)) {
        const values = Object.fromEntries(
          Object.entries(row).map(([column, value]) => [column, encodeValue(value)]),
        );
        result.rows[`${name}.${table}`] = (result.rows[`${name}.${table}`] ?? 0) + 1;
        yield emit({ type: 'row', db: name, table, row: values });
      }
    }
  } finally {
    for (const db of open.values()) db.close();
  }
  yield `${JSON.stringify({ type: 'end', lines, sha256: hash.digest('hex') })}\n`;
}

/**
 * `cairn export`: writes everything the project holds (the memory
 * workspace, `.cairn/config.json`, and every row of lineage.db, heads.db
 * and history.db) to one gzip'd JSON-lines archive at `out`. The archive
 * is written beside `out` and renamed into place, so a failed export
 * leaves no partial file; an existing `out` is refused (CONFLICT).
 */
export async function exportProject(
  rootDir: string,
  out: string,
  options: { now?: Date; version: string },
): Promise<ExportResult> {
  if (!existsSync(cairnPath(rootDir)) || !existsSync(memoryWorkspacePath(rootDir))) {
    throw new CairnError('NOT_FOUND', `No Cairn project at ${rootDir}`, {
      hint: 'run `cairn export` in a project that holds .cairn/memory/ (or pass --root)',
    });
  }
  if (existsSync(out)) throw conflict(out);
  const result: ExportResult = { path: out, bytes: 0, files: 0, rows: {} };
  const temp = join(dirname(out), `.cairn-export-${process.pid}-${Date.now()}.tmp`);
  try {
    const lines = archiveLines(rootDir, options.now ?? new Date(), options.version, result);
    await pipeline(lines, createGzip(), createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
    // A link never replaces a file that appeared meanwhile; where links are refused, a rename.
    await fsp.link(temp, out).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw conflict(out);
      await fsp.rename(temp, out);
    });
  } catch (error) {
    if (CairnError.isInstance(error)) throw error;
    throw new CairnError('WRITE_FAILED', `Cannot write the archive ${out}: ${String(error)}`, {
      cause: error,
      hint: 'check that its folder exists, is writable and has free space; nothing was written',
      details: { path: out },
    });
  } finally {
    await fsp.rm(temp, { force: true });
  }
  result.bytes = (await fsp.stat(out)).size;
  return result;
}

function conflict(out: string): CairnError {
  return new CairnError('CONFLICT', `${out} exists already`, {
    hint: 'choose another --out path, or move the file away; nothing was written',
    details: { path: out },
  });
}
